/**
 * The public search (spec 4.3, 2.3): events with their markets, and tags, for a search term; and
 * the desk's own search (issue 27: which markets matched, typo correction) and ranked tag list.
 * Their routes are routes.ts's `searchRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import { bool, int, str } from './params.ts';
import type { searchRoutes } from './routes.ts';
import type { EventRef, Market } from './types.ts';

/** An event in the search answer: its EventRef plus its markets (docs/architecture.md, "Decisions": "Search markets"). */
export interface SearchEvent extends EventRef {
  markets: Market[];
}

/** Spec 2.3. `event_count` counts the cached events that carry the tag. */
export interface SearchTag {
  id: string;
  label?: string;
  slug?: string;
  event_count: number;
}

/** All three keys are always present, `[]` when empty (docs/architecture.md, "Decisions"; real Gamma leaves them out). */
export interface SearchResult {
  events: SearchEvent[];
  tags: SearchTag[];
  pagination: { hasMore: boolean; totalResults: number };
}

/** A desk search event: also the ids of its markets that the words matched (not the event's title). */
export interface DeskSearchEvent extends SearchEvent {
  /**
   * The markets whose question holds every word the event's title does not, in the event's
   * order; `[]` when the title holds them all (the event itself is the hit).
   */
  matched_markets: string[];
}

/** GET /desk/search: the public search's answer for the desk, with market hits and typo correction. */
export interface DeskSearchResult {
  events: DeskSearchEvent[];
  tags: SearchTag[];
  pagination: { hasMore: boolean; totalResults: number };
  /**
   * Set when q matched nothing and some of its words were not catalog words: the answer is for
   * `q` (those words replaced by the nearest catalog words), `from` is what was asked.
   */
  corrected?: { q: string; from: string };
}

/** A tag with how many open markets (active, not closed, not archived) carry it. */
export interface RankedTag {
  id: string;
  label?: string;
  slug?: string;
  open_markets: number;
}

/** GET /tags/ranked: tags by use, and the rule that hid the rest. */
export interface RankedTags {
  tags: RankedTag[];
  /** Tags with fewer open markets than this were left out (`min_open`). */
  min_open: number;
  /** How many tags that rule left out. */
  hidden: number;
}

export const searchOperations = {
  'search.query': op<SearchResult>()({
    // Blank (whitespace-only) q is refused by the handler with the same message as a missing one.
    q: str({ required: true, maxLength: 500 }),
    limit_per_type: int({ min: 1, max: 500, default: 25 }),
    page: int({ min: 1, default: 1 }),
    search_tags: bool({ default: true }),
    search_profiles: bool({ default: false }),
    creator: str(),
  }),
  'search.desk': op<DeskSearchResult>()({
    q: str({ required: true, maxLength: 500 }),
    limit_per_type: int({ min: 1, max: 100, default: 10 }),
    page: int({ min: 1, default: 1 }),
    search_tags: bool({ default: true }),
    // false: no typo correction (the words as typed).
    correct: bool({ default: true }),
  }),
  'tags.ranked': op<RankedTags>()({
    // The rule for "almost no open markets": fewer than this many. `id` is listed whatever its count (the chosen tag).
    min_open: int({ min: 0, max: 1_000_000, default: 3 }),
    id: str({ maxLength: 40 }),
  }),
} satisfies DeclsFor<typeof searchRoutes>;
