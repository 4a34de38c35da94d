/**
 * Raw shapes as the upstream Gamma API sends them. The keys the cache keeps are typed, from its
 * field lists (catalog-fields.ts); everything else passes through untouched. Keys are often
 * missing (Gamma leaves out zero/empty values), so every field is optional except `id`.
 */
import type { CatalogRecord, EventFields, MarketFields, SeriesFields, TagFields } from './catalog-fields.ts';

export type GammaTag = CatalogRecord<TagFields>;
export type GammaSeries = CatalogRecord<SeriesFields>;

/** An event as `/events` sends it (with `markets`, `tags`), or nested in a market (without `markets`). */
export interface GammaEvent extends CatalogRecord<EventFields> {
  markets?: GammaMarket[];
  tags?: GammaTag[];
  series?: GammaSeries[];
}

/** A market as `/markets` sends it (with `events`), or nested in an event (without `events`). */
export interface GammaMarket extends CatalogRecord<MarketFields> {
  events?: GammaEvent[];
}

/** `/markets/keyset` answer. `next_cursor` is left out on the last page. */
export interface GammaMarketsKeysetPage {
  markets: GammaMarket[];
  next_cursor?: string;
}

/** `/events/keyset` answer. */
export interface GammaEventsKeysetPage {
  events: GammaEvent[];
  next_cursor?: string;
}
