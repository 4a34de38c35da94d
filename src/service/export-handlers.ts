/**
 * `catalog.export`: every row a listing's filters select, in its sort order, as CSV. Markets and
 * events: the listing's ids are read whole before the body starts (so a bad parameter is the
 * listing's own JSON 400, never half a file), then their rows a batch at a time while it streams,
 * each batch in its turn on the loop. The leaderboard is read whole through the leaderboard cache
 * (at most 1,050 entries).
 */
import { ApiError, badRequest, rawBody, type LeaderboardEntry, type ParamsOf, type RawBody } from '../contract/index.ts';
import { loopTurns } from '../limits/fair-turns.ts';
import type { CatalogReads } from '../store/store-api.ts';
import type { LeaderboardCache } from '../sync/leaderboard-cache.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import { EVENT_COLUMNS, MARKET_COLUMNS, csvRow, eventCells, leaderboardColumns, marketCells, type Cell } from './export-csv.ts';

/** Rows read and written per turn: about 20 ms of work at 100k markets, so a request waits at most that long. */
export const EXPORT_BATCH = 500;
/** The leaderboard route's own page size and last offset (contract leaderboard-ops.ts). */
const BOARD_PAGE = 50;
const BOARD_MAX_OFFSET = 1000;

type ExportParams = ParamsOf<'catalog.export'>;

function attachment(list: string, now: Date): Record<string, string> {
  const day = now.toISOString().slice(0, 10);
  return { 'content-disposition': `attachment; filename="marketdesk-${list}-${day}.csv"`, 'cache-control': 'no-store' };
}

/**
 * The header, then the rows of `ids`, a batch per turn (fair-turns.ts): the export is one more
 * connection in the round, so requests made while it streams are answered between its batches,
 * and a slow reader holds it back (the HTTP face pulls the next batch as the socket drains).
 */
async function* stream<T>(header: readonly string[], ids: number[], read: (ids: number[]) => T[], cells: (r: T) => Cell[]) {
  yield csvRow(header);
  const self = {};
  for (let at = 0; at < ids.length; at += EXPORT_BATCH) {
    await loopTurns.turn(self);
    const rows = read(ids.slice(at, at + EXPORT_BATCH));
    if (rows.length > 0) yield rows.map((r) => csvRow(cells(r))).join('');
  }
}

export interface ExportDeps {
  reader: CatalogReads;
  leaderboard: LeaderboardCache;
  now?: () => number;
}

export function exportHandlers(deps: ExportDeps): HandlersFor<'catalog.export'> {
  const { reader } = deps;
  const now = () => new Date((deps.now ?? Date.now)());
  return {
    'catalog.export': async (p): Promise<RawBody> => {
      const csv = (body: AsyncIterable<string>) => rawBody('text/csv; charset=utf-8', body, attachment(p.list, now()));
      switch (p.list) {
        case 'markets': {
          const ids = reader.exportMarketIds(p);
          return csv(stream(MARKET_COLUMNS, ids, (batch) => reader.marketsById(batch, p.include_tag), marketCells));
        }
        case 'events': {
          const ids = reader.exportEventIds(p);
          return csv(stream(EVENT_COLUMNS, ids, (batch) => reader.eventsById(batch), eventCells));
        }
        case 'leaderboard': {
          const entries = await boardEntries(deps.leaderboard, p);
          const cols = leaderboardColumns(entries);
          return csv(
            (async function* () {
              yield csvRow(cols.header);
              for (const e of entries) yield csvRow(cols.cells(e));
            })(),
          );
        }
        default:
          throw badRequest('catalog', 'list is invalid');
      }
    },
  };
}

/** Every entry of the board, page by page as `leaderboard.list` serves them (its errors thrown before any CSV). */
async function boardEntries(cache: LeaderboardCache, p: ExportParams): Promise<LeaderboardEntry[]> {
  const key = { category: p.category, timePeriod: p.timePeriod, orderBy: p.orderBy };
  const filter = { ...(p.user !== undefined ? { user: p.user } : {}), ...(p.userName !== undefined ? { userName: p.userName } : {}) };
  const out: LeaderboardEntry[] = [];
  for (let offset = 0; offset <= BOARD_MAX_OFFSET; offset += BOARD_PAGE) {
    let page: LeaderboardEntry[];
    try {
      page = await cache.list(key, { offset, limit: BOARD_PAGE, ...filter });
    } catch (e) {
      // The cache's only failure: no board cached and the upstream unreachable. Said plainly, in this route's family.
      if (e instanceof ApiError && e.status === 500) {
        throw new ApiError(503, { type: 'service unavailable', error: 'no leaderboard is cached and the upstream cannot be reached' });
      }
      throw e;
    }
    out.push(...page);
    if (page.length < BOARD_PAGE) break;
  }
  return out;
}
