/**
 * Test support for search: a brute-force model of GET /public-search matching, written from
 * the rules (docs/api-examples.md, `search.query`), not from the implementation: the documents are the events as
 * GET /events serves them, tokenized here in JS.
 */
import type { Event } from '../contract/index.ts';

/** Case- and accent-folded words: letters and digits, everything else separates. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface Doc {
  id: string;
  volume: number | null;
  /** title, ticker + slug, market questions, description, market descriptions. */
  columns: string[][];
}

export function docOf(e: Event): Doc {
  const t = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id: e.id,
    volume: typeof e.volume === 'number' ? e.volume : null,
    columns: [
      words(t(e.title)),
      words(`${t(e.ticker)} ${t(e.slug)}`),
      words(e.markets.map((m) => t(m.question)).join(' ')),
      words(t(e.description)),
      words(e.markets.map((m) => t(m.description)).join(' ')),
    ],
  };
}

export interface Term {
  words: string[];
  prefix: boolean;
}

/** Bare words one by one, quoted parts as phrases; the last word is a prefix unless it closes a phrase. */
export function terms(q: string): Term[] {
  const parts = q.split('"');
  const out: Term[] = [];
  let closed = false;
  parts.forEach((part, i) => {
    const w = words(part);
    if (w.length === 0) return;
    if (i % 2 === 1) out.push({ words: w, prefix: false });
    else for (const x of w) out.push({ words: [x], prefix: false });
    closed = i % 2 === 1 && i < parts.length - 1;
  });
  const last = out[out.length - 1];
  if (last && !closed) last.prefix = true;
  return out;
}

function termIn(column: string[], t: Term): boolean {
  const n = t.words.length;
  for (let i = 0; i + n <= column.length; i++) {
    let ok = true;
    for (let k = 0; k < n && ok; k++) {
      const w = column[i + k]!;
      ok = t.prefix && k === n - 1 ? w.startsWith(t.words[k]!) : w === t.words[k];
    }
    if (ok) return true;
  }
  return false;
}

/** Every term in some column of the document (phrases within one column). */
export function matches(doc: Doc, ts: readonly Term[]): boolean {
  return ts.length > 0 && ts.every((t) => doc.columns.some((c) => termIn(c, t)));
}
