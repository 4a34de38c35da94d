/**
 * Writes a small JSON file whole (temp file and rename: a crash leaves the old file or the new
 * one) whenever its owner says it changed, coalescing: changes made while a write is under way
 * go out in one more write, not one each. Evaluation changes rule states after every sync, so
 * the file follows memory a write behind at most; `flush()` waits until it has caught up.
 */
import type { Logger } from '../logger.ts';
import { writeJsonAtomic } from '../store/json-list-file.ts';

export class CoalescedWriter {
  private dirty = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly file: string | undefined,
    /** The file's whole body, read when the write starts (so it is the latest). */
    private readonly body: () => unknown,
    private readonly log: Logger,
  ) {}

  /** Marks the contents changed; a write follows (none without a file). */
  changed(): void {
    if (this.file === undefined) return;
    this.dirty = true;
    this.running ??= this.loop(this.file).finally(() => {
      this.running = undefined;
    });
  }

  /** Waits for the writes under way, including those still owed. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(file: string): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeJsonAtomic(file, this.body());
      } catch (e) {
        // Memory stays right; the next change writes again.
        this.log.warn(`could not write ${file}: ${(e as Error).message}`);
      }
    }
  }
}
