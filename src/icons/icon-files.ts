/**
 * Icons on disk: `<dataDir>/icons/<sha256 of the source URL>.webp`, each written to a temp file
 * (`.tmp-<pid>`) and renamed into place, so a reader never sees half an icon.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { pidAlive, tempPath } from '../store/temp-files.ts';

const HASH = /^[0-9a-f]{64}$/;
const TEMP = /^[0-9a-f]{64}\.webp\.tmp-(\d+)$/;

export class IconFiles {
  private ready: Promise<boolean> | undefined;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  private file(hash: string): string {
    if (!HASH.test(hash)) throw new Error('icon hash must be 64 hex digits');
    return path.join(this.dir, `${hash}.webp`);
  }

  /** Creates the folder and removes temp files of dead processes (a kill mid-write); false: cannot write. */
  prepare(): Promise<boolean> {
    this.ready ??= (async () => {
      try {
        await fsp.mkdir(this.dir, { recursive: true });
        for (const name of await fsp.readdir(this.dir)) {
          const pid = Number(TEMP.exec(name)?.[1] ?? NaN);
          if (Number.isSafeInteger(pid) && (pid === process.pid || !pidAlive(pid))) {
            await fsp.rm(path.join(this.dir, name), { force: true });
          }
        }
        return true;
      } catch (e) {
        this.log.warn(`icons: cannot use ${this.dir}: ${(e as Error).message}; icons are kept in memory only`);
        return false;
      }
    })();
    return this.ready;
  }

  async read(hash: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await fsp.readFile(this.file(hash)));
    } catch {
      return undefined;
    }
  }

  /** Best effort: a failed write (disk full, read-only dir) leaves the icon in memory only. */
  async write(hash: string, bytes: Uint8Array): Promise<void> {
    if (!(await this.prepare())) return;
    const file = this.file(hash);
    const tmp = tempPath(file);
    try {
      await fsp.writeFile(tmp, bytes);
      await fsp.rename(tmp, file);
    } catch (e) {
      await fsp.rm(tmp, { force: true }).catch(() => {});
      this.log.warn(`icons: could not save ${file}: ${(e as Error).message}`);
    }
  }
}
