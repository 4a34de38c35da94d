/**
 * Counted nouns: checked against the words written out (an independent list, not the rule),
 * for one, none and many, and the numbers the count formats.
 */
import { describe, expect, it } from 'vitest';
import { plural, pluralOf } from './plural.ts';

const WORDS: [string, string][] = [
  ['event', 'events'],
  ['market', 'markets'],
  ['match', 'matches'],
  ['entry', 'entries'],
  ['day', 'days'],
  ['box', 'boxes'],
  ['rule', 'rules'],
  ['alert', 'alerts'],
  ['order', 'orders'],
  ['row', 'rows'],
];

describe('plural', () => {
  it("the English plurals of the app's nouns", () => {
    for (const [one, many] of WORDS) expect(pluralOf(one)).toBe(many);
  });
  it('one is singular; none and many are plural; the last word of a phrase takes it', () => {
    expect(plural(1, 'matching event')).toBe('1 matching event');
    expect(plural(0, 'matching event')).toBe('0 matching events');
    expect(plural(2, 'placeholder market')).toBe('2 placeholder markets');
    expect(plural(1234, 'market')).toBe(`${(1234).toLocaleString()} markets`);
    expect(plural(3, 'person', 'people')).toBe('3 people');
    expect(plural(1, 'person', 'people')).toBe('1 person');
  });
});
