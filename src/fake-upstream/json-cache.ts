/**
 * Serialised items kept between requests, bounded by total characters (off unless a catalog is
 * given a budget: see the JSON section of catalog.ts for why). Past the budget the oldest entries
 * go first, so a sequential walk keeps a window of recent items rather than starting over.
 */
export class JsonCache {
  private readonly map = new Map<string, { json: string; seq: number }>();
  /** Insertion order as (key, seq); entries whose seq no longer matches were replaced or deleted. */
  private queue: { key: string; seq: number }[] = [];
  private head = 0;
  private seq = 0;
  private chars = 0;

  constructor(private readonly budgetChars: number) {}

  get(key: string): string | undefined {
    return this.map.get(key)?.json;
  }

  set(key: string, json: string): void {
    if (this.budgetChars <= 0 || json.length > this.budgetChars) return;
    this.delete(key);
    const seq = ++this.seq;
    this.map.set(key, { json, seq });
    this.queue.push({ key, seq });
    this.chars += json.length;
    while (this.chars > this.budgetChars && this.head < this.queue.length) {
      const old = this.queue[this.head++]!;
      const cur = this.map.get(old.key);
      if (cur && cur.seq === old.seq) {
        this.map.delete(old.key);
        this.chars -= cur.json.length;
      }
    }
    // Drop the consumed front now and then instead of shifting per eviction.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.chars -= old.json.length;
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.queue = [];
    this.head = 0;
    this.chars = 0;
  }

  get size(): number {
    return this.map.size;
  }
}
