/**
 * The history walk in the status bar (`--horizon-days all`, or "all history" in the settings):
 * how many closed markets and events it has read, and whether it is walking, complete, or
 * incomplete because the upstream has no keyset routes. Nothing with a day horizon.
 */
import type { HistoryStatus } from '../../../src/contract/types.ts';
import { plural } from '../plural.ts';

const STATES: Record<Exclude<HistoryStatus['state'], 'off'>, string> = {
  walking: 'walking',
  done: 'complete',
  incomplete: 'incomplete',
};

export function historyText(h: HistoryStatus | undefined): string | null {
  if (!h || h.state === 'off') return null;
  return `History: ${plural(h.markets, 'market')}, ${plural(h.events, 'event')}, ${STATES[h.state]}`;
}

function historyTitle(h: HistoryStatus): string {
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
  const lines = [`Closed markets and events read by the history walk. Started ${when(h.startedAt)}, last page ${when(h.updatedAt)}.`];
  if (h.state === 'walking') lines.push('It goes on in the background, under the rate budget, and resumes after a restart.');
  if (h.state === 'incomplete')
    lines.push(
      'The upstream has no keyset routes, and offset paging stops after about 2,000 items: the rest of the history cannot be read.',
    );
  return lines.join('\n');
}

export function HistoryStatusItem({ history }: { history: HistoryStatus | undefined }) {
  const text = historyText(history);
  if (!history || !text) return null;
  return (
    <span
      className={`sb-item${history.state === 'incomplete' ? ' sb-warn' : ' muted'}`}
      title={historyTitle(history)}
      data-testid="history-status"
      data-history-state={history.state}
    >
      {text}
    </span>
  );
}
