/**
 * The alerts' files: rules kept with their state across a reopen, the cap refused without a
 * change, an unreadable file moved aside; the fired log newest first, capped, paged, and kept.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FiredAlert } from '../contract/alerts-ops.ts';
import { tempDir } from '../testing/fixtures.ts';
import { FIRED_FILE, FiredLog } from './fired-log.ts';
import { AlertRulesFile, MAX_RULES, RULES_FILE } from './rules-file.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

const base = { kind: 'price_cross' as const, level: 0.5, label: 'L', createdAt: '2026-11-01T00:00:00.000Z', lastFiredAt: null };

describe('AlertRulesFile', () => {
  it('keeps rules and their state across a reopen; removal and in-place state changes are written', async () => {
    const d = dir();
    const a = await AlertRulesFile.open({ dataDir: d });
    const r1 = a.add({ ...base, state: { side: 'below' } });
    const r2 = a.add({ ...base, label: 'M', state: {} });
    expect(r1.id).not.toBe(r2.id);
    r2.state = { side: 'above', last: 0.7 };
    r2.lastFiredAt = '2026-11-02T00:00:00.000Z';
    a.changed();
    expect(a.remove(r1.id)).toBe(true);
    expect(a.remove(r1.id)).toBe(false);
    await a.flush();
    const b = await AlertRulesFile.open({ dataDir: d });
    expect(b.all()).toEqual([r2]);
    expect(b.list()).toEqual([{ ...base, id: r2.id, label: 'M', lastFiredAt: '2026-11-02T00:00:00.000Z' }]);
    expect(JSON.parse(readFileSync(path.join(d, RULES_FILE), 'utf8')).rules[0].state).toEqual({ side: 'above', last: 0.7 });
  });

  it('refuses a rule past the cap and changes nothing', async () => {
    const a = await AlertRulesFile.open();
    for (let i = 0; i < MAX_RULES; i++) a.add({ ...base, state: {} });
    const before = a.list();
    expect(() => a.add({ ...base, state: {} })).toThrow(RangeError);
    expect(a.list()).toEqual(before);
  });

  it('moves an unreadable file aside and starts empty', async () => {
    const d = dir();
    writeFileSync(path.join(d, RULES_FILE), '{ not json');
    const a = await AlertRulesFile.open({ dataDir: d, now: () => 42 });
    expect(a.list()).toEqual([]);
    expect(existsSync(path.join(d, `${RULES_FILE}.unreadable-42`))).toBe(true);
    expect(readdirSync(d).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

const fired = (n: number): FiredAlert => ({
  id: `f${n}`,
  ruleId: 'r',
  kind: 'price_cross',
  at: new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString(),
  title: `t${n}`,
  before: n - 1,
  after: n,
});

describe('FiredLog', () => {
  it('serves newest first with total, limit and offset, capped at its max, and keeps it across a reopen', async () => {
    const d = dir();
    const log = await FiredLog.open({ dataDir: d, max: 5 });
    log.append([fired(1), fired(2), fired(3)]);
    log.append([fired(4), fired(5), fired(6), fired(7)]);
    expect(log.page(2, 0)).toEqual({ total: 5, fired: [fired(7), fired(6)] });
    expect(log.page(10, 3).fired.map((f) => f.id)).toEqual(['f4', 'f3']);
    await log.flush();
    const again = await FiredLog.open({ dataDir: d, max: 5 });
    expect(again.page(100, 0)).toEqual(log.page(100, 0));
    expect(JSON.parse(readFileSync(path.join(d, FIRED_FILE), 'utf8')).fired).toHaveLength(5);
  });
});
