/**
 * Search results for the header's search box: events (each with its markets) and tags,
 * from the service's full-text index (GET /desk/search); debounced, paged ("more results"). The
 * markets the words matched are listed first and marked; a misspelt word is corrected by the
 * service and the view says so. A tag filters the grids; an event or market opens in the detail
 * panel, over these results (the grids behind it would show something unrelated).
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { AlertButton } from '../alerts/AlertButton.tsx';
import { api, type DeskSearchEvent, type DeskSearchResult } from '../api.ts';
import { OutcomeBox, StatusBadge } from '../components/cells.tsx';
import { noCatalog } from '../catalog-state.ts';
import { fmtInt, fmtMoney } from '../format.ts';
import { useLive } from '../live.tsx';
import { useNav } from '../nav.tsx';
import { Star } from '../watchlist.tsx';
import { shownMarkets } from './search-results.ts';
import './Search.css';
import { plural } from '../plural.ts';

export const SEARCH_DEBOUNCE_MS = 80;
// A screenful; the service builds and sends every event's markets, so a page is not cheap.
const PER_PAGE = 10;

/**
 * Debounced with a leading edge: a change after a pause goes through at once (the first
 * keystroke searches immediately); changes in quick succession collapse into one, `ms`
 * after the last of them.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  const lastChange = useRef(0);
  // A layout effect: the leading update re-renders before the browser paints.
  useLayoutEffect(() => {
    const now = performance.now();
    const idle = now - lastChange.current >= ms;
    lastChange.current = now;
    if (idle) {
      setV(value);
      return;
    }
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function useSearch(q: string) {
  const term = q.trim();
  return useInfiniteQuery({
    queryKey: ['search.desk', { q: term, limit_per_type: PER_PAGE }],
    queryFn: ({ pageParam }) => api.search.desk({ q: term, limit_per_type: PER_PAGE, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last: DeskSearchResult, all) => (last.pagination.hasMore ? all.length + 1 : undefined),
    placeholderData: keepPreviousData,
    enabled: term !== '',
    staleTime: 30_000,
  });
}

/** The results the arrow keys walk through, in screen order: each event and its listed markets, then tags. */
export const RESULT_SELECTOR = '[data-testid="search-event"], [data-testid="search-market"], [data-testid="search-tag"]';
/** What Enter in the search box opens: the first event's first matched market, else the first result. */
export const TOP_HIT_SELECTOR = '[data-top-hit]';
const SEARCH_INPUT_SELECTOR = '.search-box input';

/** ArrowDown/ArrowUp from a result focuses the next/previous one; up from the first returns to the box. */
function onResultsKey(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const body = e.currentTarget.closest('.search-body');
  const results = body ? [...body.querySelectorAll<HTMLElement>(RESULT_SELECTOR)] : [];
  const at = results.indexOf(e.currentTarget);
  if (at < 0) return;
  e.preventDefault();
  const next = results[at + (e.key === 'ArrowDown' ? 1 : -1)];
  if (next) next.focus();
  else if (e.key === 'ArrowUp') document.querySelector<HTMLInputElement>(SEARCH_INPUT_SELECTOR)?.focus();
}

export function SearchView() {
  const nav = useNav();
  const debounced = useDebounced(nav.query, SEARCH_DEBOUNCE_MS);
  const search = useSearch(debounced);
  const pages = search.data?.pages ?? [];
  const events = pages.flatMap((p) => p.events);
  const tagMap = new Map(pages.flatMap((p) => p.tags).map((t) => [t.id, t]));
  const tags = [...tagMap.values()];
  const total = pages[0]?.pagination.totalResults;
  const corrected = pages[0]?.corrected;
  const term = debounced.trim();
  const missing = noCatalog(useLive());
  const state =
    term === '' ? 'idle' : search.isPending ? 'loading' : search.isError ? 'error' : events.length + tags.length === 0 ? 'empty' : 'ready';

  return (
    <section className="view search-view" aria-label="Search results" data-state={state} data-query={search.isPlaceholderData ? '' : term}>
      <div className="toolbar">
        <span className="toolbar-title">
          {term === '' ? (
            'Search'
          ) : (
            <>
              Results for <q>{term}</q>
            </>
          )}
        </span>
        {total !== undefined && term !== '' ? <span className="muted">{plural(total, 'matching event')}</span> : null}
        {search.isFetching ? <span className="spinner" role="status" aria-label="Searching" /> : null}
        {term !== '' ? <AlertButton subject={{ kind: 'search', q: term }} text="Alert on new matches" /> : null}
        <span className="toolbar-spacer" />
        <span className="muted kbd-hint">
          <kbd>Ctrl</kbd>+<kbd>K</kbd> to search
        </span>
      </div>
      <div className="search-body">
        {state === 'idle' ? (
          <div className="empty">
            <p className="empty-title">Search markets, events and tags</p>
            <p className="empty-hint">Type in the search box above. Results come from the local cache, so search works offline too.</p>
          </div>
        ) : state === 'error' ? (
          <div className="empty">
            <p className="empty-title">Search failed</p>
            <p className="empty-hint">{search.error?.message}</p>
          </div>
        ) : state === 'empty' && missing ? (
          // An empty cache matches nothing: say so, not that the words are wrong.
          <div className="empty" data-testid="search-no-catalog">
            <p className="empty-title">Nothing to search yet: no catalog is cached</p>
            <p className="empty-hint">{missing.trying}</p>
          </div>
        ) : state === 'empty' ? (
          <div className="empty">
            <p className="empty-title">Nothing matches “{term}”</p>
            <p className="empty-hint">Try fewer or different words.</p>
          </div>
        ) : (
          <>
            {corrected && state === 'ready' ? (
              <p className="search-corrected" data-testid="search-corrected" role="status">
                No match for <q>{corrected.from}</q>; showing results for <q>{corrected.q}</q>.
              </p>
            ) : null}
            <div className="search-columns">
              <section className="search-events" aria-label="Events">
                <h2 className="section-h">Events</h2>
                {events.length === 0 && state === 'ready' ? <p className="muted">No events match.</p> : null}
                <ul className="result-list">
                  {events.map((e, i) => (
                    <SearchEventItem key={e.id} event={e} top={i === 0} />
                  ))}
                </ul>
                {search.hasNextPage ? (
                  <button
                    type="button"
                    className="btn more"
                    onClick={() => void search.fetchNextPage()}
                    disabled={search.isFetchingNextPage}
                  >
                    {search.isFetchingNextPage ? 'Loading…' : 'More results'}
                  </button>
                ) : null}
              </section>
              <section className="search-tags" aria-label="Tags">
                <h2 className="section-h">Tags</h2>
                {tags.length === 0 ? <p className="muted">No tags match.</p> : null}
                <ul className="tag-results">
                  {tags.map((t) => (
                    <li key={t.id}>
                      <button
                        type="button"
                        className="tag-result"
                        data-testid="search-tag"
                        onKeyDown={onResultsKey}
                        onClick={() => nav.filterByTag({ id: t.id, label: t.label ?? t.slug ?? t.id })}
                        title={`Show markets tagged ${t.label ?? t.id}`}
                      >
                        <span>{t.label ?? t.slug}</span>
                        <span className="muted">{fmtInt(t.event_count)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

function SearchEventItem({ event, top }: { event: DeskSearchEvent; top: boolean }) {
  const nav = useNav();
  // Matched markets first and always listed; then the leader and the rest, as the event panel lists them.
  const { markets, more } = shownMarkets(event);
  const title = event.title ?? event.slug ?? event.id;
  const topMarket = top ? markets.find((m) => m.matched)?.market.id : undefined;
  return (
    <li className="result">
      <div className="result-head">
        <button
          type="button"
          className="result-title"
          data-testid="search-event"
          data-top-hit={top && topMarket === undefined ? '' : undefined}
          onKeyDown={onResultsKey}
          onClick={() => nav.open('event', event.id)}
        >
          {title}
        </button>
        <Star kind="event" id={event.id} label={title} />
      </div>
      {markets.length ? (
        <ul className="result-markets">
          {markets.map(({ market: m, matched }) => (
            <li key={m.id}>
              <button
                type="button"
                className={matched ? 'result-market is-match' : 'result-market'}
                data-testid="search-market"
                data-matched={matched ? 'true' : undefined}
                data-top-hit={m.id === topMarket ? '' : undefined}
                aria-label={`${m.question ?? m.id}${matched ? ' (matches your search)' : ''}`}
                onKeyDown={onResultsKey}
                onClick={() => nav.open('market', m.id)}
              >
                <span className="em-title">
                  {(m['groupItemTitle'] as string | undefined) || m.question || m.id}
                  {matched ? <span className="match-badge">match</span> : null}
                </span>
                <OutcomeBox market={m} />
                <span className="em-vol num">{fmtMoney(m.volume)}</span>
                <StatusBadge item={m} />
              </button>
            </li>
          ))}
          {more > 0 ? (
            <li className="muted more-markets">
              <button
                type="button"
                className="link-btn"
                onClick={() => nav.marketsOfEvent({ id: event.id, title: event.title ?? event.id })}
              >
                {plural(more, 'more market')}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}
