/**
 * Typo tolerance for the desk's search (issue 27): the catalog's own words (event titles and
 * market questions, as the index's tokenizer cuts them) with a trigram index, so a word the
 * catalog does not know ("bitcon") is replaced by the nearest one it does ("bitcoin"), within one
 * edit for short words and two for longer ones (Damerau's transposition counts as one edit).
 *
 * Pure data and arithmetic: search-reader.ts feeds it the words and decides when to ask. A
 * trigram index rather than a deletion neighbourhood: a word's trigrams are about its length, so
 * the index is a few times the vocabulary, where two-edit deletions would be ~40 entries a word.
 */

/** Words shorter than this are never corrected (too many near neighbours to guess well). */
export const MIN_TYPO_LENGTH = 4;

/** The edits a word of this length may hold: 1 up to 5 letters, 2 from 6. */
export const maxEdits = (length: number): number => (length <= 5 ? 1 : 2);

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), or limit + 1 once past it. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, limit + 1);
}

/** A word's trigrams, padded so its first and last letters count as much as its middle ones. */
function trigrams(word: string): string[] {
  const w = `\u0002${word}\u0003`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= w.length; i++) out.add(w.slice(i, i + 3));
  return [...out];
}

export class Vocabulary {
  /** Every word, sorted (binary search for "is a prefix of some word"). */
  private readonly words: string[];
  /** Documents per word, by index into `words`. */
  private readonly docs: Int32Array;
  private readonly byTrigram = new Map<string, number[]>();

  /** `counts`: each word with the number of documents (events, markets) it appears in. */
  constructor(counts: Iterable<readonly [string, number]>) {
    const entries = [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.words = entries.map((e) => e[0]);
    this.docs = Int32Array.from(entries, (e) => e[1]);
    this.words.forEach((w, i) => {
      if (w.length < MIN_TYPO_LENGTH - 1 || /^\d+$/.test(w)) return;
      for (const t of trigrams(w)) {
        const list = this.byTrigram.get(t);
        if (list) list.push(i);
        else this.byTrigram.set(t, [i]);
      }
    });
  }

  get size(): number {
    return this.words.length;
  }

  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.words[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The word is in the vocabulary (or, `prefix`, starts one of its words). */
  knows(word: string, prefix = false): boolean {
    const at = this.words[this.lowerBound(word)];
    return at !== undefined && (prefix ? at.startsWith(word) : at === word);
  }

  /**
   * The nearest known word to an unknown one: fewest edits (maxEdits at most), then the most
   * documents, then alphabetical. Undefined when the word is known, too short, a number, or has
   * no neighbour close enough.
   */
  correct(word: string, prefix = false): string | undefined {
    if (word.length < MIN_TYPO_LENGTH || /^\d+$/.test(word) || this.knows(word, prefix)) return undefined;
    const limit = maxEdits(word.length);
    const seen = new Set<number>();
    let best: { i: number; d: number } | undefined;
    for (const t of trigrams(word)) {
      for (const i of this.byTrigram.get(t) ?? []) {
        if (seen.has(i)) continue;
        seen.add(i);
        const w = this.words[i]!;
        const d = editDistance(word, w, limit);
        if (d > limit) continue;
        const better =
          !best ||
          d < best.d ||
          (d === best.d && (this.docs[i]! > this.docs[best.i]! || (this.docs[i] === this.docs[best.i] && i < best.i)));
        if (better) best = { i, d };
      }
    }
    return best ? this.words[best.i] : undefined;
  }
}
