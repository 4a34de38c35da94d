/**
 * What a user's script for Polymarket's market channel does, for tests of the clob face's
 * `/ws/market`: connect with `ws`, subscribe, keep its own books from the `book` and
 * `price_change` messages, answer nothing.
 */
import WebSocket from 'ws';

export interface Level {
  price: string;
  size: string;
}

/** What a user's script does: connect, subscribe, keep books from `book` and `price_change` messages. */
export class MarketScript {
  readonly messages: Record<string, unknown>[] = [];
  readonly texts: string[] = [];
  readonly books = new Map<string, { bids: Map<string, string>; asks: Map<string, string> }>();
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      const text = data.toString();
      this.texts.push(text);
      if (!text.startsWith('{') && !text.startsWith('[')) return;
      const v = JSON.parse(text) as Record<string, unknown> | Record<string, unknown>[];
      for (const m of Array.isArray(v) ? v : [v]) {
        this.messages.push(m);
        if (m['event_type'] === 'book') {
          const book = { bids: new Map<string, string>(), asks: new Map<string, string>() };
          for (const l of m['bids'] as Level[]) book.bids.set(l.price, l.size);
          for (const l of m['asks'] as Level[]) book.asks.set(l.price, l.size);
          this.books.set(m['asset_id'] as string, book);
        } else if (m['event_type'] === 'price_change') {
          for (const c of m['price_changes'] as (Level & { asset_id: string; side: string })[]) {
            const book = this.books.get(c.asset_id);
            const side = c.side === 'BUY' ? book?.bids : book?.asks;
            if (!side) continue;
            if (Number(c.size) === 0) side.delete(c.price);
            else side.set(c.price, c.size);
          }
        }
      }
    });
  }

  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  /** The script's book in Polymarket's order. */
  book(id: string): { bids: Level[]; asks: Level[] } | undefined {
    const b = this.books.get(id);
    const side = (m: Map<string, string>, asc: boolean) =>
      [...m].sort((x, y) => (asc ? Number(x[0]) - Number(y[0]) : Number(y[0]) - Number(x[0]))).map(([price, size]) => ({ price, size }));
    return b && { bids: side(b.bids, true), asks: side(b.asks, false) };
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((r) => this.ws.once('close', r));
    this.ws.close();
    await closed;
  }
}
