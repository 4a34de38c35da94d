/**
 * The public search (spec 4.3, 2.3): events with their markets, and tags, for a search term.
 * Its route is routes.ts's `searchRoutes`.
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
} satisfies DeclsFor<typeof searchRoutes>;
