/** One event: its heading and tags, figures, its markets leader first, and its description. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AlertButton } from '../alerts/AlertButton.tsx';
import { api, type Event } from '../api.ts';
import { rankMarkets } from '../../../src/contract/market-rules.ts';
import { StatusBadge } from '../components/cells.tsx';
import { Icon } from '../components/Icon.tsx';
import { useNav } from '../nav.tsx';
import { Star } from '../watchlist.tsx';
import { EndedNote } from './EndedNote.tsx';
import { EventChart } from './EventChart.tsx';
import { EventMarkets } from './EventMarkets.tsx';
import { RulesText } from './RulesDiff.tsx';
import { PanelLoading, PanelShell } from './PanelShell.tsx';
import { EventStats } from './Stats.tsx';
import { plural } from '../plural.ts';

export function EventPanel({ id }: { id: string }) {
  const nav = useNav();
  const q = useQuery({ queryKey: ['events.get', { id }], queryFn: () => api.events.get(id), placeholderData: keepPreviousData });
  const e: Event | undefined = q.data;
  if (!e) return <PanelLoading error={q.error} label="Event" />;
  // Leader first, as Polymarket lists them; unpriced placeholders ("Person A") only clutter.
  const all = e.markets ?? [];
  const markets = rankMarkets(all);
  const hidden = all.length - markets.length;
  const title = e.title ?? e.slug ?? e.id;
  return (
    <PanelShell label="Event" item={`event:${e.id}`} status={<StatusBadge item={e} />}>
      <div className="panel-title-row">
        <Icon kind="event" id={e.id} size={36} />
        <h2 className="detail-title" data-testid="detail-title">
          {title}
        </h2>
        <Star kind="event" id={e.id} label={title} size={18} />
        <AlertButton subject={{ kind: 'event', id: e.id, title }} />
      </div>
      <EndedNote item={e} noun="event" />
      {e.tags?.length ? (
        <div className="tag-list">
          {e.tags.map((t) => (
            <button
              key={t.id}
              type="button"
              className="tag"
              title={`Markets tagged ${t.label ?? t.id}`}
              onClick={() => nav.filterByTag({ id: t.id, label: t.label ?? t.id })}
            >
              {t.label ?? t.id}
            </button>
          ))}
        </div>
      ) : null}
      <EventChart ranked={markets} />
      <div className="detail-section-head">
        <h3 className="detail-h">Markets</h3>
        <button type="button" className="btn btn-quiet" onClick={() => nav.marketsOfEvent({ id: e.id, title: e.title ?? e.id })}>
          Show in markets grid
        </button>
      </div>
      <EventMarkets markets={markets} empty={all.length === 0} />
      {hidden > 0 ? (
        <p className="muted placeholder-note" data-testid="placeholders-hidden">
          {plural(hidden, 'placeholder market')} hidden
        </p>
      ) : null}
      <EventStats e={e} markets={markets.length} />
      {e.description ? (
        <>
          <h3 className="detail-h">Description</h3>
          <RulesText kind="event" id={e.id} text={e.description} />
        </>
      ) : null}
    </PanelShell>
  );
}
