/**
 * Counted nouns, one rule for the whole app: "1 matching event", "2 matching events", "0 rows".
 * The count is formatted for the locale (1,234); the English plural is the noun's own (an `s`,
 * or `es` after s, x, z, ch, sh; a consonant's y becomes ies), or the one given.
 */
import { fmtInt } from './format.ts';

export function pluralOf(noun: string): string {
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** `n` and its noun: the last word takes the plural ("matching event" → "matching events"). */
export function plural(n: number, noun: string, many?: string): string {
  if (n === 1) return `${fmtInt(n)} ${noun}`;
  if (many !== undefined) return `${fmtInt(n)} ${many}`;
  const at = noun.lastIndexOf(' ') + 1;
  return `${fmtInt(n)} ${noun.slice(0, at)}${pluralOf(noun.slice(at))}`;
}
