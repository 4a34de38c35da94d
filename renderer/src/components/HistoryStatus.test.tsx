// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { HistoryStatus } from '../../../src/contract/types.ts';
import { fmtInt } from '../format.ts';
import { HistoryStatusItem, historyText } from './HistoryStatus.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const walking: HistoryStatus = {
  state: 'walking',
  events: 40_000,
  markets: 123_456,
  startedAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:30:00.000Z',
};

function render(history: HistoryStatus | undefined): {
  text: string;
  state: string | null;
  className: string | null;
  title: string | null;
} {
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(createElement(HistoryStatusItem, { history })));
  const el = host.querySelector('[data-testid="history-status"]');
  const out = {
    text: host.textContent ?? '',
    state: el?.getAttribute('data-history-state') ?? null,
    className: el?.getAttribute('class') ?? null,
    title: el?.getAttribute('title') ?? null,
  };
  act(() => root.unmount());
  return out;
}

describe('history walk in the status bar', () => {
  it('says nothing with a day horizon, or where no sync engine reports one', () => {
    expect(render(undefined).text).toBe('');
    expect(render({ ...walking, state: 'off', events: 0, markets: 0 }).text).toBe('');
    expect(historyText({ ...walking, state: 'off' })).toBeNull();
  });

  it('shows the counts read so far and the state, as the walk goes and when it is complete', () => {
    const w = render(walking);
    expect(w.text).toBe(`History: ${fmtInt(123_456)} markets, ${fmtInt(40_000)} events, walking`);
    expect(w.state).toBe('walking');
    expect(w.title).toMatch(/resumes after a restart/);
    const done = render({ ...walking, state: 'done', markets: 800_123, events: 330_001 });
    expect(done.text).toBe(`History: ${fmtInt(800_123)} markets, ${fmtInt(330_001)} events, complete`);
    expect(done.className).toContain('muted');
  });

  it('an incomplete history (no keyset routes) is a warning that says why', () => {
    const r = render({ ...walking, state: 'incomplete', markets: 2100, events: 700 });
    expect(r.text).toBe(`History: ${fmtInt(2100)} markets, ${fmtInt(700)} events, incomplete`);
    expect(r.className).toContain('sb-warn');
    expect(r.title).toMatch(/no keyset routes/);
  });
});
