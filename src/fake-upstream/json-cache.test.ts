import { describe, expect, it } from 'vitest';
import { JsonCache } from './json-cache.ts';

describe('JsonCache', () => {
  it('evicts the oldest entries past the budget', () => {
    const c = new JsonCache(10);
    c.set('a', 'aaaa');
    c.set('b', 'bbbb');
    c.set('c', 'cccc');
    expect(c.get('a')).toBeUndefined();
    expect([c.get('b'), c.get('c')]).toEqual(['bbbb', 'cccc']);
    c.set('b', 'BB'); // replacing moves it to the back
    c.set('d', 'dddd');
    expect([c.get('b'), c.get('c'), c.get('d')]).toEqual(['BB', 'cccc', 'dddd']);
    c.set('e', 'eeee');
    expect(c.get('c')).toBeUndefined();
    expect(c.size).toBe(3);
  });

  it('skips values larger than the budget and does nothing with a zero budget', () => {
    const c = new JsonCache(3);
    c.set('big', 'xxxx');
    expect(c.get('big')).toBeUndefined();
    const off = new JsonCache(0);
    off.set('a', '');
    off.set('b', 'b');
    expect([off.get('a'), off.get('b'), off.size]).toEqual([undefined, undefined, 0]);
  });

  it('keeps its accounting through many evictions', () => {
    const c = new JsonCache(100);
    for (let i = 0; i < 10_000; i++) c.set(`k${i % 300}`, 'x'.repeat(1 + (i % 7)));
    expect(c.size).toBeGreaterThan(10);
    expect(c.size).toBeLessThanOrEqual(100);
  });
});
