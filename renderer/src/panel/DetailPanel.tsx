/**
 * The side panel beside (or over) the grids: one market or one event, whichever the
 * navigation holds.
 */
import { useNav } from '../nav.tsx';
import { EventPanel } from './EventPanel.tsx';
import { MarketPanel } from './MarketPanel.tsx';

export function DetailPanel() {
  const nav = useNav();
  if (!nav.detail) return null;
  return nav.detail.kind === 'market' ? <MarketPanel id={nav.detail.id} /> : <EventPanel id={nav.detail.id} />;
}
