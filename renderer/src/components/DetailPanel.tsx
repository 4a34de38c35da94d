/**
 * The detail panel beside the grids: one market (description, outcomes with prices and token
 * ids, resolution source, dates, links, its event) or one event (with its markets).
 * Esc closes it (App.tsx).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, type Event, type Market } from '../api.ts';
import { rankMarkets } from '../chance.ts';
import { DASH, fmtDate, fmtDateTime, fmtDecimal, fmtInt, fmtMoney, fmtMoneyFull, fmtPrice, outcomesOf } from '../format.ts';
import { useLive } from '../live.tsx';
import { useNav } from '../nav.tsx';
import { OutcomeBox, StatusBadge } from './cells.tsx';

export function DetailPanel() {
  const nav = useNav();
  if (!nav.detail) return null;
  return nav.detail.kind === 'market' ? <MarketDetail id={nav.detail.id} /> : <EventDetail id={nav.detail.id} />;
}

function Shell({ label, status, children }: { label: string; status?: ReactNode; children: ReactNode }) {
  const nav = useNav();
  return (
    <aside className="detail" aria-label={label} data-testid="detail">
      <div className="detail-head">
        <span className="detail-kind">{label}</span>
        {status}
        <span className="toolbar-spacer" />
        <button type="button" className="icon-btn" aria-label="Close detail (Esc)" title="Close (Esc)" onClick={nav.close}>
          ×
        </button>
      </div>
      <div className="detail-body">{children}</div>
    </aside>
  );
}

function Loading({ error, label }: { error: Error | null; label: string }) {
  return (
    <Shell label={label}>
      <p className="muted">{error ? `Could not load: ${error.message}` : 'Loading…'}</p>
    </Shell>
  );
}

function Stat({ label, value, mono }: { label: string; value: ReactNode; mono?: boolean }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined} title={mono && typeof value === 'string' ? value : undefined}>
        {value}
      </dd>
    </div>
  );
}

function isUrl(s: unknown): s is string {
  return typeof s === 'string' && /^https?:\/\/\S+$/.test(s);
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  // Electron turns window.open into shell.openExternal; a browser opens a tab.
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className="link">
      {children}
    </a>
  );
}

function MarketDetail({ id }: { id: string }) {
  const nav = useNav();
  const { status } = useLive();
  const q = useQuery({ queryKey: ['markets.get', { id }], queryFn: () => api.markets.get(id), placeholderData: keepPreviousData });
  const m = q.data;
  if (!m) return <Loading error={q.error} label="Market" />;
  const event = m.events?.[0];
  const outcomes = outcomesOf(m);
  const polymarket = status?.profile === 'polymarket';
  return (
    <Shell label="Market" status={<StatusBadge item={m} />}>
      <h2 className="detail-title" data-testid="detail-title">
        {m.question ?? m.slug ?? m.id}
      </h2>
      {event ? (
        <p className="detail-event">
          <span className="muted">Event </span>
          <button type="button" className="link-btn" onClick={() => nav.open('event', event.id)}>
            {event.title ?? event.slug ?? event.id}
          </button>
          <span className="muted"> · </span>
          <button type="button" className="link-btn" onClick={() => nav.marketsOfEvent({ id: event.id, title: event.title ?? event.id })}>
            all its markets
          </button>
        </p>
      ) : null}

      <table className="mini-table" aria-label="Outcomes">
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col">Token id</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                No outcomes listed
              </td>
            </tr>
          ) : (
            outcomes.map((o, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an outcome is its position (it pairs with the i-th price and token)
              <tr key={i}>
                <td>{o.name}</td>
                <td className="num strong">{fmtPrice(o.price)}</td>
                <td className="mono token">{o.tokenId ?? DASH}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>

      <dl className="stats">
        <Stat label="Volume" value={fmtMoneyFull(m.volumeNum ?? m.volume)} />
        <Stat label="24h volume" value={fmtMoneyFull(m.volume24hr)} />
        <Stat label="1 week volume" value={fmtMoneyFull(m['volume1wk'])} />
        <Stat label="Liquidity" value={fmtMoneyFull(m.liquidityNum ?? m.liquidity)} />
        <Stat label="Best bid" value={fmtPrice(m.bestBid)} />
        <Stat label="Best ask" value={fmtPrice(m.bestAsk)} />
        <Stat label="Last trade" value={fmtPrice(m.lastTradePrice)} />
        <Stat label="Spread" value={fmtDecimal(m['spread'])} />
        <Stat label="Starts" value={fmtDateTime(m.startDate)} />
        <Stat label="Ends" value={fmtDateTime(m.endDate)} />
        <Stat label="Created" value={fmtDateTime(m.createdAt)} />
        <Stat label="Updated" value={fmtDateTime(m.updatedAt)} />
        {m.closedTime ? <Stat label="Closed" value={fmtDateTime(m.closedTime)} /> : null}
      </dl>

      <h3 className="detail-h">Resolution source</h3>
      <p className="detail-text">
        {isUrl(m.resolutionSource) ? (
          <ExternalLink href={m.resolutionSource}>{m.resolutionSource}</ExternalLink>
        ) : (
          m.resolutionSource || DASH
        )}
      </p>

      {m.description ? (
        <>
          <h3 className="detail-h">Description</h3>
          <p className="detail-text prewrap">{m.description}</p>
        </>
      ) : null}

      <h3 className="detail-h">Identifiers</h3>
      <dl className="stats one">
        <Stat label="Market id" value={m.id} mono />
        <Stat label="Slug" value={m.slug ?? DASH} mono />
        <Stat label="Condition id" value={m.conditionId ?? DASH} mono />
      </dl>
      {polymarket && (event?.slug || m.slug) ? (
        <p className="detail-links">
          <ExternalLink
            href={
              event?.slug
                ? `https://polymarket.com/event/${encodeURIComponent(event.slug)}`
                : `https://polymarket.com/market/${encodeURIComponent(m.slug!)}`
            }
          >
            Open on polymarket.com ↗
          </ExternalLink>
        </p>
      ) : null}
    </Shell>
  );
}

function EventDetail({ id }: { id: string }) {
  const nav = useNav();
  const q = useQuery({ queryKey: ['events.get', { id }], queryFn: () => api.events.get(id), placeholderData: keepPreviousData });
  const e: Event | undefined = q.data;
  if (!e) return <Loading error={q.error} label="Event" />;
  // Leader first, as Polymarket lists them; unpriced placeholders ("Person A") only clutter.
  const all = e.markets ?? [];
  const markets = rankMarkets(all);
  const hidden = all.length - markets.length;
  return (
    <Shell label="Event" status={<StatusBadge item={e} />}>
      <h2 className="detail-title" data-testid="detail-title">
        {e.title ?? e.slug ?? e.id}
      </h2>
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
      <dl className="stats">
        <Stat label="Volume" value={fmtMoneyFull(e.volume)} />
        <Stat label="24h volume" value={fmtMoneyFull(e['volume24hr'])} />
        <Stat label="Liquidity" value={fmtMoneyFull(e.liquidity)} />
        <Stat label="Markets" value={fmtInt(markets.length)} />
        <Stat label="Starts" value={fmtDate(e.startDate)} />
        <Stat label="Ends" value={fmtDate(e.endDate)} />
      </dl>
      <div className="detail-section-head">
        <h3 className="detail-h">Markets</h3>
        <button type="button" className="btn btn-quiet" onClick={() => nav.marketsOfEvent({ id: e.id, title: e.title ?? e.id })}>
          Show in markets grid
        </button>
      </div>
      <ul className="event-markets" aria-label="Markets of this event">
        {markets.map((m: Market) => (
          <li key={m.id}>
            <button type="button" className="event-market" onClick={() => nav.open('market', m.id)}>
              <span className="em-title">{(m['groupItemTitle'] as string | undefined) || m.question || m.id}</span>
              <OutcomeBox market={m} />
              <span className="em-vol num">{fmtMoney(m.volumeNum ?? m.volume)}</span>
              <StatusBadge item={m} />
            </button>
          </li>
        ))}
        {all.length === 0 ? <li className="muted">No markets cached for this event</li> : null}
      </ul>
      {hidden > 0 ? (
        <p className="muted placeholder-note" data-testid="placeholders-hidden">
          {fmtInt(hidden)} placeholder {hidden === 1 ? 'market' : 'markets'} hidden
        </p>
      ) : null}
      {e.description ? (
        <>
          <h3 className="detail-h">Description</h3>
          <p className="detail-text prewrap">{e.description}</p>
        </>
      ) : null}
    </Shell>
  );
}
