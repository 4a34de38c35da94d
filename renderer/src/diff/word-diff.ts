/**
 * A word-level diff of two texts (a market's rules before and after an edit): Myers' O((N+M)D)
 * shortest edit script over word tokens, after the common head and tail are cut off. Rules
 * edits are usually small (a date, a clause), so D is small and a long text costs little.
 *
 * Tokens: a run of letters, digits and marks (with inner apostrophes and hyphens: "don't",
 * "re-run"), a run of whitespace, or any other single character (punctuation, symbols), so a
 * changed comma is one token, not the word beside it.
 */
export type DiffKind = 'same' | 'ins' | 'del';
export interface DiffPart {
  kind: DiffKind;
  text: string;
}

const TOKEN = /[\p{L}\p{N}\p{M}]+(?:['’-][\p{L}\p{N}\p{M}]+)*|\s+|[\s\S]/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Beyond this many edits the texts have little in common: the whole before is deleted and the whole after inserted. */
const MAX_EDITS = 5_000;

/** Edits in order: `same` parts are in both texts, `del` only in `before`, `ins` only in `after`. Adjacent parts of a kind are joined. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffPart[] = [];
  const push = (kind: DiffKind, text: string) => {
    if (text === '') return;
    const last = out.at(-1);
    if (last?.kind === kind) last.text += text;
    else out.push({ kind, text });
  };
  push('same', a.slice(0, head).join(''));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const script = myers(midA, midB);
  if (script) for (const [kind, text] of script) push(kind, text);
  else {
    push('del', midA.join(''));
    push('ins', midB.join(''));
  }
  push('same', a.slice(a.length - tail).join(''));
  return tidy(out);
}

/**
 * The shortest edit script from `a` to `b`, or undefined past MAX_EDITS. Keeps each step's
 * frontier (the furthest x per diagonal k, within -d..d), then walks back from the end.
 */
function myers(a: string[], b: string[]): [DiffKind, string][] | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, MAX_EDITS);
  const frontiers: Int32Array[] = [];
  let v = new Int32Array(1);
  let found = -1;
  for (let d = 0; d <= limit && found < 0; d++) {
    const next = new Int32Array(2 * d + 1);
    // prev(k): the previous step's x on diagonal k (its range is -(d-1)..d-1).
    const prev = (k: number) => v[k + d - 1]!;
    for (let k = -d; k <= d; k += 2) {
      let x = d === 0 ? 0 : k === -d || (k !== d && prev(k - 1) < prev(k + 1)) ? prev(k + 1) : prev(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + d] = x;
      if (x >= n && y >= m) found = d;
    }
    frontiers.push(next);
    v = next;
  }
  if (found < 0) return undefined;
  const rev: [DiffKind, string][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const p = frontiers[d - 1]!;
    const at = (k: number) => p[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    // The snake after the edit: tokens in both.
    while (x > (down ? px : px + 1) && y > (down ? py + 1 : py)) {
      rev.push(['same', a[--x]!]);
      y--;
    }
    if (down) rev.push(['ins', b[--y]!]);
    else rev.push(['del', a[--x]!]);
  }
  while (x > 0 && y > 0) {
    rev.push(['same', a[--x]!]);
    y--;
  }
  return rev.reverse();
}

/**
 * Readability: a lone run of whitespace kept between two changed stretches ("a b" -> "x y")
 * reads as noise, so it joins both sides and the change reads as one deletion and one insertion.
 */
function tidy(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  parts.forEach((p, i) => {
    const between = i > 0 && i < parts.length - 1 && parts[i - 1]!.kind !== 'same' && parts[i + 1]!.kind !== 'same';
    if (p.kind === 'same' && between && /^\s+$/.test(p.text)) out.push({ kind: 'del', text: p.text }, { kind: 'ins', text: p.text });
    else out.push(p);
  });
  return regroup(out);
}

/** Deletions before insertions within each changed stretch, each kind joined. */
function regroup(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let del = '';
  let ins = '';
  const flush = () => {
    if (del) out.push({ kind: 'del', text: del });
    if (ins) out.push({ kind: 'ins', text: ins });
    del = ins = '';
  };
  for (const p of parts) {
    if (p.kind === 'del') del += p.text;
    else if (p.kind === 'ins') ins += p.text;
    else {
      flush();
      out.push(p);
    }
  }
  flush();
  return out;
}

/** The texts the diff joins back into (a check the tests make: nothing lost, nothing made up). */
export function sides(parts: readonly DiffPart[]): { before: string; after: string } {
  let before = '';
  let after = '';
  for (const p of parts) {
    if (p.kind !== 'ins') before += p.text;
    if (p.kind !== 'del') after += p.text;
  }
  return { before, after };
}
