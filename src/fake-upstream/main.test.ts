import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURES_DIR } from './fixture-catalog.ts';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { parseFakeUpstreamArgs, serveFakeUpstream, USAGE } from './main.ts';

const DIR = `${FIXTURES_DIR}/`;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LINE = /^fake-upstream listening on (http:\/\/127\.0\.0\.1:\d+) \((\d+) markets, (\d+) events, (\d+) tags\)$/;
const WS_LINE = /^clob ws: (ws:\/\/127\.0\.0\.1:\d+) \(market channel \/ws\/market, seed (\d+), ([\d.]+) msg\/s\)$/;

describe('parseFakeUpstreamArgs', () => {
  it('reads the flags', () => {
    expect(parseFakeUpstreamArgs(['--port', '8080', '--synthetic', '1000', '--seed', '3', '--no-keyset'])).toEqual({
      port: 8080,
      host: '127.0.0.1',
      synthetic: 1000,
      seed: 3,
      keyset: false,
      log: false,
    });
    expect(parseFakeUpstreamArgs(['--fixtures=/x', '--host=0.0.0.0', '--port=0'])).toMatchObject({
      fixtures: '/x',
      host: '0.0.0.0',
      port: 0,
    });
  });

  it('serves the recorded responses shipped in the repo when given no catalog', () => {
    expect(parseFakeUpstreamArgs(['--port', '1'])).toMatchObject({ fixtures: FIXTURES_DIR, port: 1 });
  });

  it('explains what is wrong', () => {
    expect(parseFakeUpstreamArgs(['--synthetic', '10', '--verbose'])).toBe('unknown argument: --verbose');
    expect(parseFakeUpstreamArgs(['--fixtures', 'a', '--synthetic', '1'])).toMatch(/not both/);
    // Neither flag: the recorded responses shipped in the repo.
    expect(parseFakeUpstreamArgs(['--port', '0'])).toMatchObject({ fixtures: FIXTURES_DIR });
    expect(parseFakeUpstreamArgs(['--synthetic', 'many'])).toMatch(/--synthetic/);
    expect(parseFakeUpstreamArgs(['--synthetic', '5', '--port', '70000'])).toMatch(/--port/);
    expect(parseFakeUpstreamArgs(['--fixtures', 'a', '--seed', '1'])).toMatch(/--seed/);
    expect(parseFakeUpstreamArgs(['--ws-rate', 'fast'])).toMatch(/--ws-rate/);
    expect(parseFakeUpstreamArgs(['--ws-seed', '-1'])).toMatch(/--ws-seed/);
  });

  it('reads the market channel’s rate and seed', () => {
    expect(parseFakeUpstreamArgs(['--ws-rate', '20', '--ws-seed=9'])).toMatchObject({ wsRate: 20, wsSeed: 9 });
    expect(parseFakeUpstreamArgs(['--ws-rate=0.5'])).toMatchObject({ wsRate: 0.5 });
  });
});

describe('serveFakeUpstream', () => {
  it('prints its HTTP and WebSocket addresses, serves, and stops with exit code 0', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    let printed!: () => void;
    const lines = new Promise<void>((resolve) => (printed = resolve));
    const io = {
      out: (l: string) => {
        out.push(l);
        if (out.length === 2) printed();
      },
      err: (l: string) => out.push(l),
      signal: stop.signal,
    };
    const done = serveFakeUpstream(['--port', '0', '--synthetic', '120', '--seed', '2', '--ws-rate', '50', '--ws-seed', '77'], io);
    await lines;
    const m = LINE.exec(out[0]!)!;
    expect(m).not.toBeNull();
    expect(m[2]).toBe('120');
    const r = await fetch(`${m[1]}/markets?limit=2`);
    expect(await r.json()).toHaveLength(2);
    const ws = WS_LINE.exec(out[1]!)!;
    expect(ws).not.toBeNull();
    expect(ws[1]).toBe(m[1]!.replace('http', 'ws'));
    expect([ws[2], ws[3]]).toEqual(['77', '50']);
    // The channel answers there.
    const sock = new WebSocket(`${ws[1]}/ws/market`);
    const pong = new Promise<string>((resolve) => sock.once('message', (d) => resolve(d.toString())));
    sock.once('open', () => sock.send('PING'));
    expect(await pong).toBe('PONG');
    sock.terminate();
    stop.abort();
    expect(await done).toBe(0);
    expect(out).toHaveLength(2);
  });

  it('exits 2 with the usage line on unknown flags', async () => {
    const err: string[] = [];
    expect(await serveFakeUpstream(['--bogus'], { err: (l) => err.push(l), out: () => {} })).toBe(2);
    expect(err).toEqual(['fake-upstream: unknown argument: --bogus', USAGE]);
  });

  it('exits 1 when the fixture directory is missing', async () => {
    const err: string[] = [];
    expect(await serveFakeUpstream(['--fixtures', '/nonexistent/dir'], { err: (l) => err.push(l), out: () => {} })).toBe(1);
    expect(err[0]).toMatch(/^fake-upstream: /);
  });
});

describe('fake-upstream as a process', () => {
  it('runs until SIGTERM and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/fake-upstream/main.ts', '--port', '0', '--fixtures', DIR], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
      });
      exited.then(() => reject(new Error(`exited early: ${stderr}`)));
    });
    const m = LINE.exec(line)!;
    expect(m).not.toBeNull();
    expect(Number(m[2])).toBeGreaterThan(800);
    const r = await fetch(`${m[1]}/markets/517310`);
    expect(((await r.json()) as { id: string }).id).toBe('517310');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
