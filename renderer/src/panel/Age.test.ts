import { describe, expect, it } from 'vitest';
import { ageText } from './Age.tsx';

describe('ageText', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('says how old a live copy is', () => {
    expect(ageText('2026-01-01T11:58:00Z', false, now)).toBe('updated 2 min. ago');
    expect(ageText('2026-01-01T11:59:50Z', false, now)).toBe('updated just now');
  });
  it('calls a copy kept while the upstream is unreachable an offline copy', () => {
    expect(ageText('2026-01-01T09:00:00Z', true, now)).toBe('offline copy from 3 hr. ago');
    expect(ageText(null, true, now)).toBe('offline, never fetched');
    expect(ageText(null, false, now)).toBe('');
  });
});
