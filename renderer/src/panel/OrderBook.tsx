/**
 * The order book section, one outcome at a time (Yes first): the live book from the stream while
 * the market streams (stream/: its books and tape follow the page), else `markets.book`, refetched
 * every 2.5 s while the panel is open (not while the window is hidden). Best bid, best ask and
 * spread in ¢ at the top, then asks above bids, as Polymarket shows them, with the book's freshness.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MarketBook } from '../../../src/contract/desk-ops.ts';
import { call } from '../api.ts';
import { FreshnessLabel, useMarketTick } from '../stream/LiveCells.tsx';
import { useLiveBook } from '../stream/store.ts';
import { useHoldBook } from '../stream/view.ts';
import { fmtCents } from '../chance.ts';
import { Segmented } from '../components/Segmented.tsx';
import { Age } from './Age.tsx';
import { BookLevels } from './BookLevels.tsx';
import { bookView } from './book.ts';

const REFRESH_MS = 2500;

/** `off`: why the market cannot be traded (market-rules.ts tradingIds); its book is then never asked for. */
export function OrderBook({ id, off }: { id: string; off?: string | undefined }) {
  const [pick, setPick] = useState('0');
  useHoldBook(off === undefined ? id : undefined);
  const live = useLiveBook(id);
  const { tick, fresh } = useMarketTick(id);
  // Streaming: every outcome has its snapshot, and the socket is fresh; then no polling.
  const streaming =
    !!live && fresh.kind === 'live' && live.outcomes.length > 0 && live.outcomes.every((o) => o.book && o.book.state !== 'waiting');
  const q = useQuery({
    queryKey: ['markets.book', { id }],
    queryFn: () => call('markets.book', { id }),
    enabled: off === undefined && !streaming,
    placeholderData: keepPreviousData,
    refetchInterval: streaming ? false : REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const polled = q.data?.id === id ? q.data : undefined;
  // Live while it streams; else the polled book; a stale stream's last book until the first poll answers.
  const showLive = !!live && live.outcomes.length > 0 && (streaming || !polled);
  const book: Pick<MarketBook, 'outcomes'> | undefined = showLive
    ? {
        outcomes: live.outcomes.map((o) => ({
          name: o.name,
          tokenId: o.assetId,
          book: o.book && { bids: o.book.bids, asks: o.book.asks },
        })),
      }
    : polled;
  const outcomes = book?.outcomes ?? [];
  const at = Number(pick) < outcomes.length ? Number(pick) : 0;
  const view = bookView(outcomes[at]?.book);
  return (
    <section className="panel-section order-book" aria-label="Order book" data-testid="order-book" data-live={streaming}>
      <div className="panel-section-head">
        <h3 className="detail-h">Order book</h3>
        {showLive && tick ? (
          <FreshnessLabel fresh={fresh} testId="book-freshness" />
        ) : polled?.stale ? (
          <Age fetchedAt={polled.fetchedAt} stale testId="book-age" />
        ) : null}
        <span className="toolbar-spacer" />
        {outcomes.length > 1 ? (
          <Segmented label="Outcome" options={outcomes.map((o, i) => [String(i), o.name] as const)} value={String(at)} onChange={setPick} />
        ) : null}
      </div>
      {off !== undefined ? (
        <p className="muted book-message" data-testid="book-off">
          {off}
        </p>
      ) : !book ? (
        <p className="muted book-message">{q.error ? `No order book: ${q.error.message}` : 'Loading order book…'}</p>
      ) : !outcomes[at]?.book ? (
        <p className="muted book-message" data-testid="book-empty">
          No order book for {outcomes[at]?.name ?? 'this market'}.
        </p>
      ) : (
        <>
          <dl className="book-top">
            <div>
              <dt>Best bid</dt>
              <dd className="value pos" data-testid="book-best-bid">
                {fmtCents(view.bestBid)}
              </dd>
            </div>
            <div>
              <dt>Best ask</dt>
              <dd className="value neg" data-testid="book-best-ask">
                {fmtCents(view.bestAsk)}
              </dd>
            </div>
            <div>
              <dt>Spread</dt>
              <dd className="value" data-testid="book-spread">
                {fmtCents(view.spread)}
              </dd>
            </div>
          </dl>
          <table className="book-table" aria-label={`Order book for ${outcomes[at]!.name}`}>
            <thead>
              <tr>
                <th scope="col">Price</th>
                <th scope="col">Shares</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              <BookLevels rows={view.asks} side="ask" />
              <tr className="book-mid">
                <td colSpan={3}>Spread {fmtCents(view.spread)}</td>
              </tr>
              <BookLevels rows={view.bids} side="bid" />
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
