/**
 * Raw shapes as the upstream Gamma API sends them. Only the keys the service reads are
 * typed; everything else passes through untouched. Keys are often missing (Gamma leaves
 * out zero/empty values), so every field is optional except `id`.
 */
export interface GammaTag {
  id: string;
  label?: string;
  slug?: string;
  forceShow?: boolean;
  forceHide?: boolean;
  publishedAt?: string;
  createdAt?: string;
  updatedAt?: string;
  requiresTranslation?: boolean;
  [key: string]: unknown;
}

export interface GammaSeries {
  id: string;
  ticker?: string;
  slug?: string;
  title?: string;
  [key: string]: unknown;
}

/** An event as `/events` sends it (with `markets`, `tags`), or nested in a market (without `markets`). */
export interface GammaEvent {
  id: string;
  ticker?: string;
  slug?: string;
  title?: string;
  description?: string;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  createdAt?: string;
  updatedAt?: string;
  markets?: GammaMarket[];
  tags?: GammaTag[];
  series?: GammaSeries[];
  [key: string]: unknown;
}

/** A market as `/markets` sends it (with `events`), or nested in an event (without `events`). */
export interface GammaMarket {
  id: string;
  question?: string;
  conditionId?: string;
  slug?: string;
  outcomes?: string;
  outcomePrices?: string | null;
  clobTokenIds?: string;
  volume?: string;
  volumeNum?: number;
  liquidity?: string;
  liquidityNum?: number;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  createdAt?: string;
  updatedAt?: string;
  closedTime?: string;
  events?: GammaEvent[];
  [key: string]: unknown;
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
