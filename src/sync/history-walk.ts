/**
 * The history walk of `--horizon-days all`: every closed event and market, read once through the
 * keyset routes (`closed=true`, id order) in the background, after the open catalog is in. Where
 * each walk stands is saved in the store's meta after every page is written, so a restart goes
 * on from there; a finished history is not walked again (new closures come in through the
 * incremental sync). Without keyset routes offset paging stops at Gamma's cap: what was read is
 * kept and the history is marked incomplete.
 */
import type { HistoryStatus } from '../contract/index.ts';
import type { Store } from '../store/store-api.ts';
import type { Logger } from '../logger.ts';
import { UpstreamError } from '../upstream/client.ts';
import type { GammaApi, Kind, WalkOptions, WalkPosition } from '../upstream/gamma.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';

/** The meta key of the saved walk (JSON of `Saved`). */
export const HISTORY_META_KEY = 'historyWalk';

interface KindState {
  /** Where this kind's walk goes on from; null: at the start (or, once `done`, nowhere). */
  at: WalkPosition | null;
  done: boolean;
  items: number;
  pages: number;
}

interface Saved {
  state: HistoryStatus['state'];
  /** The walk hit the offset cap (no keyset routes): what it read is all it could read. */
  capped: boolean;
  startedAt: string | null;
  updatedAt: string | null;
  kinds: Record<Kind, KindState>;
}

const fresh = (): Saved => ({
  state: 'off',
  capped: false,
  startedAt: null,
  updatedAt: null,
  kinds: { events: { at: null, done: false, items: 0, pages: 0 }, markets: { at: null, done: false, items: 0, pages: 0 } },
});

function load(store: Pick<Store, 'getMeta'>): Saved {
  const raw = store.getMeta(HISTORY_META_KEY);
  if (!raw) return fresh();
  try {
    const v = JSON.parse(raw) as Saved;
    return v && typeof v === 'object' && v.kinds?.events && v.kinds?.markets ? v : fresh();
  } catch {
    return fresh();
  }
}

function statusOf(s: Saved): HistoryStatus {
  return {
    state: s.state,
    events: s.kinds.events.items,
    markets: s.kinds.markets.items,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
  };
}

/** The history walk as last saved in the cache, for a service that runs no sync (offline); undefined if never walked. */
export function savedHistoryStatus(store: Pick<Store, 'getMeta'>): HistoryStatus | undefined {
  return store.getMeta(HISTORY_META_KEY) ? statusOf(load(store)) : undefined;
}

export interface HistoryDeps {
  store: Store;
  gamma: GammaApi;
  /** Writes a batch in the sync's turn (fair-turns.ts), outside any run's progress counts. */
  write: (batch: { events?: GammaEvent[]; markets?: GammaMarket[] }) => Promise<void>;
  log: Logger;
  now: () => number;
  /** Called after every change of the walk's status. */
  changed: () => void;
}

export class HistoryWalk {
  private saved: Saved;
  /** Whether this process walked already: an incomplete history is walked again only at the next start. */
  private walked = false;

  constructor(private readonly d: HistoryDeps) {
    this.saved = load(d.store);
  }

  status(): HistoryStatus {
    return statusOf(this.saved);
  }

  /** Whether there is anything left to walk in this process (an incomplete history is tried once per start). */
  get finished(): boolean {
    return this.saved.state === 'done' || (this.saved.state === 'incomplete' && this.walked);
  }

  /** A day horizon prunes the history: forget the walk, so `all` later walks it again. */
  turnOff(): void {
    if (this.saved.state === 'off' && this.saved.startedAt === null) return;
    this.saved = fresh();
    this.save();
  }

  private save(): void {
    this.saved.updatedAt = new Date(this.d.now()).toISOString();
    this.d.store.setMeta(HISTORY_META_KEY, JSON.stringify(this.saved));
    this.d.changed();
  }

  /** Walks what is left of the history; rejects when aborted (the position is kept) or when a page keeps failing. */
  async run(signal: AbortSignal, resume: WalkOptions['resume']): Promise<void> {
    if (this.finished) return;
    this.walked = true;
    if (this.saved.state === 'incomplete') {
      // The upstream may have keyset routes now: read it all again (a capped walk is short).
      this.d.log.info('the closed history was incomplete (no keyset routes); walking it again');
      this.saved = fresh();
    }
    if (this.saved.state !== 'walking') {
      this.saved.state = 'walking';
      this.saved.startedAt = new Date(this.d.now()).toISOString();
      this.save();
      this.d.log.info('walking the closed history (--horizon-days all)');
    }
    // Two chains at once, as the full sync's walks: round trips, not the budget, bound one chain.
    // Both settle before the run does: a chain left running would race the next run's over the same position.
    const ends = await Promise.allSettled([this.walkKind('events', signal, resume), this.walkKind('markets', signal, resume)]);
    const failed = ends.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const k = this.saved.kinds;
    this.saved.state = this.saved.capped ? 'incomplete' : 'done';
    this.save();
    const counts = `${k.markets.items} closed markets and ${k.events.items} closed events`;
    if (this.saved.capped)
      this.d.log.warn(`the upstream has no keyset routes: offset paging stops at its cap, so the history holds only ${counts}`);
    else this.d.log.info(`the closed history is complete: ${counts} read`);
  }

  private async walkKind(kind: Kind, signal: AbortSignal, resume: WalkOptions['resume']): Promise<void> {
    const k = this.saved.kinds[kind];
    if (k.done) return;
    let paged = false;
    const walk = () =>
      this.d.gamma.walk(
        kind,
        { filters: { closed: true }, signal, capped: true, ...(resume ? { resume } : {}), ...(k.at ? { from: k.at } : {}) },
        async (items, next) => {
          paged = true;
          if (items.length) await this.d.write(kind === 'events' ? { events: items as GammaEvent[] } : { markets: items as GammaMarket[] });
          k.items += items.length;
          k.pages++;
          // Saved after the write: a stop between the two reads this page again, which rewrites the same rows.
          k.at = next;
          if (next === null) k.done = true;
          this.save();
        },
      );
    let r: Awaited<ReturnType<typeof walk>>;
    try {
      r = await walk();
    } catch (e) {
      // A saved cursor the upstream no longer takes (422): this kind starts over.
      if (paged || !k.at || !(e instanceof UpstreamError) || e.status === null || e.status < 400 || e.status >= 500 || e.status === 429)
        throw e;
      this.d.log.warn(`the saved history position for ${kind} was refused (${e.message}); walking ${kind} from the start`);
      Object.assign(k, { at: null, items: 0, pages: 0 });
      r = await walk();
    }
    if (r.ended === 'capped') this.saved.capped = true;
    k.done = true;
    k.at = null;
    this.save();
  }
}
