import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fmtChange, fmtMoney, fmtSignedMoney, MINUS, pastEnd, STATUS_LABEL, statusOf } from './format.ts';

describe('format', () => {
  it('writes money compactly with one precision at every scale', () => {
    expect(fmtMoney(591.8)).toBe('$592');
    expect(fmtMoney(4000)).toBe('$4.0K');
    expect(fmtMoney(20_321)).toBe('$20.3K');
    expect(fmtMoney(1_234_567)).toBe('$1.2M');
    expect(fmtMoney('2500000000')).toBe('$2.5B');
    // Rounds up into the next unit rather than reading "$1,000".
    expect(fmtMoney(999.6)).toBe('$1.0K');
    expect(fmtMoney(0)).toBe('$0');
    expect(fmtMoney(undefined)).toBe('—');
    expect(fmtMoney('n/a')).toBe('—');
  });

  it('tells signed money apart at the same precision (leaderboard P&L)', () => {
    expect(fmtSignedMoney(2_040_000)).toBe('+$2.0M');
    expect(fmtSignedMoney(2_310_000)).toBe('+$2.3M');
    expect(fmtSignedMoney(-1500)).toBe('-$1.5K');
  });

  it('writes a 24h change in signed points of chance', () => {
    expect(fmtChange(0.032)).toBe('+3.2');
    expect(fmtChange(-0.015)).toBe(`${MINUS}1.5`);
    expect(fmtChange(0)).toBe('0.0');
    expect(fmtChange(0.0004)).toBe('0.0');
    expect(fmtChange(0.1)).toBe('+10.0');
    expect(fmtChange(undefined)).toBe('—');
  });
});

describe('status', () => {
  const NOW = Date.UTC(2026, 10, 28, 12);
  it('reads an open market past its end date as Ended (awaiting resolution), whatever form Gamma sends the date in', () => {
    fc.assert(
      fc.property(
        fc.record({ active: fc.boolean(), closed: fc.boolean(), archived: fc.boolean() }),
        fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
        fc.constantFrom('iso', 'space', 'junk'),
        (flags, days, form) => {
          // Whole days from now, so the date-only and space forms lose nothing that matters.
          const end = days === undefined ? undefined : new Date(NOW + days * 86_400_000 + 3_600_000);
          const endDate =
            end === undefined
              ? undefined
              : form === 'iso'
                ? end.toISOString()
                : form === 'space'
                  ? `${end.toISOString().slice(0, 19).replace('T', ' ')}+00`
                  : 'soon';
          const item = { ...flags, ...(endDate === undefined ? {} : { endDate }) };
          const past = form !== 'junk' && days !== undefined && days < 0;
          const expected = flags.archived ? 'archived' : flags.closed ? 'closed' : !flags.active ? 'inactive' : past ? 'ended' : 'open';
          expect(statusOf(item, NOW)).toBe(expected);
          expect(pastEnd(item, NOW) !== undefined).toBe(expected === 'ended');
        },
      ),
      { numRuns: 400 },
    );
    expect(STATUS_LABEL.ended).toBe('Ended');
  });
});
