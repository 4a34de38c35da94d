/**
 * One market, in the order a trader reads it: what it is, what each outcome costs and how it
 * moved, the price chart, the order book, the rules, then the figures, and the ids last.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { marketChance, tradingIds } from '../../../src/contract/market-rules.ts';
import { api } from '../api.ts';
import { StatusBadge } from '../components/cells.tsx';
import { useLive } from '../live.tsx';
import { MarketHead } from './MarketHead.tsx';
import { OrderBook } from './OrderBook.tsx';
import { OutcomeTable } from './OutcomeTable.tsx';
import { PanelLoading, PanelShell } from './PanelShell.tsx';
import { PriceChart } from './PriceChart.tsx';
import { ExternalLink } from './Links.tsx';
import { Rules } from './Rules.tsx';
import { MarketFees, MarketStats } from './Stats.tsx';
import { TokenIds } from './TokenIds.tsx';
import { TradeTape } from './TradeTape.tsx';
import { useMarketTick, withQuote } from '../stream/LiveCells.tsx';

export function MarketPanel({ id }: { id: string }) {
  const { status } = useLive();
  const q = useQuery({ queryKey: ['markets.get', { id }], queryFn: () => api.markets.get(id), placeholderData: keepPreviousData });
  // The stream's prices over the catalog's while the page is open (stream/LiveCells.tsx).
  const { tick, fresh } = useMarketTick(id);
  const m = q.data && tick ? withQuote(q.data, tick.quote) : q.data;
  if (!m) return <PanelLoading error={q.error} label="Market" />;
  const event = m.events?.[0];
  // The CLOB's book and chart need the outcomes' trading ids (chosen by `version`): without them, a one-line reason.
  const trading = tradingIds(m);
  const off = trading.ok ? undefined : trading.reason;
  const link =
    status?.profile === 'polymarket' && (event?.slug || m.slug)
      ? event?.slug
        ? `https://polymarket.com/event/${encodeURIComponent(event.slug)}`
        : `https://polymarket.com/market/${encodeURIComponent(m.slug!)}`
      : undefined;
  return (
    <PanelShell label="Market" item={`market:${m.id}`} status={<StatusBadge item={m} />}>
      <MarketHead m={m} />
      <OutcomeTable m={m} fresh={fresh} />
      <PriceChart id={m.id} off={off} price={marketChance(m)} priceFresh={fresh} />
      <OrderBook id={m.id} off={off} />
      <TradeTape id={m.id} off={off} />
      <Rules m={m} />
      <h3 className="detail-h">Figures</h3>
      <MarketStats m={m} />
      <MarketFees m={m} />
      {link ? (
        <p className="detail-links">
          <ExternalLink href={link}>Open on polymarket.com ↗</ExternalLink>
        </p>
      ) : null}
      <TokenIds m={m} />
    </PanelShell>
  );
}
