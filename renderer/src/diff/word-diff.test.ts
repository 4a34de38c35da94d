/**
 * The rules diff (word-diff.ts): minimal edits over word tokens, punctuation and unicode as
 * their own tokens, both texts recovered from the parts, and long texts diffed as closely as
 * short ones. How fast is the bench's to say (`npm run bench -- --only diff`, bench/word-diff.ts).
 */
import { describe, expect, it } from 'vitest';
import { sides, tokenize, wordDiff } from './word-diff.ts';

const marked = (before: string, after: string) =>
  wordDiff(before, after)
    .map((p) => (p.kind === 'same' ? p.text : p.kind === 'ins' ? `{+${p.text}+}` : `[-${p.text}-]`))
    .join('');

describe('tokenize', () => {
  it('splits words, whitespace and each punctuation mark, keeping inner apostrophes and hyphens', () => {
    expect(tokenize("Don't re-run it, ok?")).toEqual(["Don't", ' ', 're-run', ' ', 'it', ',', ' ', 'ok', '?']);
    expect(tokenize('Ünïcödé 東京 café—naïve')).toEqual(['Ünïcödé', ' ', '東京', ' ', 'café', '—', 'naïve']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('wordDiff', () => {
  it('marks an inserted and a deleted word', () => {
    expect(marked('The market resolves Yes on 1 May.', 'The market resolves Yes on 3 May 2026.')).toBe(
      'The market resolves Yes on [-1-]{+3+} May{+ 2026+}.',
    );
    expect(marked('a b c', 'a c')).toBe('a [-b -]c');
    expect(marked('same', 'same')).toBe('same');
    expect(marked('', 'new text')).toBe('{+new text+}');
    expect(marked('old text', '')).toBe('[-old text-]');
  });

  it('joins a change of several words into one deletion and one insertion', () => {
    expect(marked('ends on Friday morning at noon', 'ends on Monday evening at noon')).toBe(
      'ends on [-Friday morning-]{+Monday evening+} at noon',
    );
    // A word both texts keep splits the change.
    expect(marked('if the price is above 50', 'if the close is below 50')).toBe('if the [-price-]{+close+} is [-above-]{+below+} 50');
  });

  it('treats punctuation and unicode as tokens', () => {
    expect(marked('Resolves "Yes", else "No".', 'Resolves “Yes”; else “No”.')).toBe(
      'Resolves [-"-]{+“+}Yes[-",-]{+”;+} else [-"-]{+“+}No[-"-]{+”+}.',
    );
    expect(marked('Zürich 東京 🚀 launch', 'Zürich 大阪 🚀 launch')).toBe('Zürich [-東京-]{+大阪+} 🚀 launch');
  });

  it('gives back both texts exactly, for random edits', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = ['yes', 'no', 'market', 'resolves', ',', '.', 'the', 'é', '2026', '\n', '东京'];
    for (let i = 0; i < 200; i++) {
      const a = Array.from({ length: Math.floor(rnd() * 40) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
      const b = a
        .split(' ')
        .filter(() => rnd() > 0.2)
        .map((w) => (rnd() > 0.9 ? words[Math.floor(rnd() * words.length)] : w))
        .join(' ');
      expect(sides(wordDiff(a, b))).toEqual({ before: a, after: b });
    }
  });

  it('is minimal: no token both deleted and inserted where keeping it was possible', () => {
    const parts = wordDiff('one two three four five', 'one three four six five');
    expect(parts.filter((p) => p.kind !== 'same').map((p) => `${p.kind}:${p.text.trim()}`)).toEqual(['del:two', 'ins:six']);
  });

  it('diffs long rules to just their edits (not the whole-replacement fallback)', () => {
    const para = 'This market will resolve to "Yes" if the official source reports a value above the threshold by the deadline. ';
    const before = para.repeat(300);
    const added = 'An added clause about delays, ties and revisions. ';
    const after = `${para.repeat(120)}${added}${para.repeat(180).replace('deadline', 'end date')}`;
    // ~12,000 tokens a side, two edits. Its time is measured in the bench (bench/word-diff.ts).
    const parts = wordDiff(before, after);
    expect(sides(parts)).toEqual({ before, after });
    expect(parts.filter((p) => p.kind !== 'same').map((p) => `${p.kind}:${p.text}`)).toEqual([
      `ins:${added}`,
      'del:deadline',
      'ins:end date',
    ]);
    // Everything else is kept: the same parts are the texts minus the edits.
    expect(parts.filter((p) => p.kind === 'same').reduce((n, p) => n + p.text.length, 0)).toBe(before.length - 'deadline'.length);
  });

  it('falls back to a whole replacement for unrelated texts, still exact', () => {
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 6000 }, (_, i) => `b${i}`).join(',');
    expect(sides(wordDiff(a, b))).toEqual({ before: a, after: b });
  });
});
