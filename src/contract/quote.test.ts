import { describe, expect, it } from 'vitest';
import { quote } from './quote.ts';

describe('quote', () => {
  it('puts a text in curly quotes, its own double quotes made single (nested)', () => {
    expect(quote('bitcoin')).toBe('“bitcoin”');
    expect(quote('"fed" cut')).toBe('“‘fed’ cut”');
    expect(quote('Will “X” win?')).toBe('“Will ‘X’ win?”');
    expect(quote('"trump"')).toBe('“trump”');
    expect(quote('“trump”')).toBe('“trump”');
    expect(quote('5" screen')).toBe('“5’ screen”');
    expect(quote('it’s')).toBe('“it’s”');
  });
});
