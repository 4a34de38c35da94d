/**
 * Test support: the built CLI (out/main/cli.js) as users run it, in its own process, with its
 * output, a wait on a line of it, and a cleanup that kills it if a test left it running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.ts';
import { CLI_ENTRY } from './built-cli.ts';

export type Cleanup = () => Promise<void> | void;

/** A test file's cleanup list, run last-first after each test. Call once, at the top of the file. */
export function cleanupAfterEach(): (fn: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return (fn) => void cleanups.push(fn);
}

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr together, in the order they arrived. */
  out(): string;
  /** The first match of `re` in the output, once it is printed; rejects if the process exits first. */
  line(re: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], opts: { cleanup: (fn: Cleanup) => void; env?: NodeJS.ProcessEnv }): CliRun {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let out = '';
  const waiters: (() => void)[] = [];
  const on = (append: (s: string) => void) => (d: Buffer) => {
    append(d.toString());
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on(
    'data',
    on((s) => {
      stdout += s;
    }),
  );
  child.stderr.on(
    'data',
    on((s) => {
      stderr += s;
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  opts.cleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const line = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(re);
        if (m) resolve(m);
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`exited before ${re}: ${out}`));
        else waiters.push(check);
      };
      void exited.then(() => check());
      check();
    });
  return { child, stdout: () => stdout, stderr: () => stderr, out: () => out, line, exited };
}
