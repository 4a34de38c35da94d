/**
 * GET /public-search answered from the full-text index (search-index.ts), offline.
 *
 * The MATCH expression is built here from tokens, never from the user's text: q is cut at
 * double quotes into bare words and phrases, each part is tokenized by SQLite's own unicode61
 * tokenizer (fts3tokenize, the one the index uses), and every token goes back quoted. So
 * NEAR, AND, `*`, `-`, `:`, `^` and parentheses are plain words or separators, and every
 * word must match (FTS4's implicit AND). The last word, when not inside a closed phrase, is a
 * prefix.
 *
 * Ranking: BM25 over matchinfo, computed in JS. Per phrase one idf (from the column where
 * it is most common), times the weighted, saturated hit count of each column. There is no
 * length normalisation (BM25 b = 0), because matchinfo's per-row document length ('l') costs
 * a %_docsize lookup per match, about 2.5 µs each, so a 40,000-hit query would spend 100 ms on
 * it. The column weights make a title hit outrank any number of description hits. Ties
 * are broken by volume (descending, nulls last) and then by id.
 *
 * A prefix term (the word still being typed) scores by the best column it hits, once: how many
 * words of a row start with "b" says nothing about how well the row matches "b", and counting
 * them put small events with long descriptions above large ones (issue 13, item 10). So for
 * "b" every event with a title word starting with b ties, and volume orders them.
 */
import type { DeskSearchEvent, DeskSearchResult, ParamsOf, RankedTags, SearchEvent, SearchResult, SearchTag } from '../contract/index.ts';
import type { CatalogReader } from './catalog-reader.ts';
import { MARKET_COLS, mapMarket } from './listing-entities.ts';
import { SEARCH_COLUMNS } from './search-index.ts';
import { UntilWrite, placeholders, type Bind, type Statements } from './statements.ts';
import { Vocabulary } from './search-typos.ts';

/**
 * Column weights, in SEARCH_COLUMNS order: title, ticker+slug, questions, description, details.
 * A saturated column gives at most weight x 2.2, so one title hit (5) or one market-question
 * hit (3.5) outranks any number of description hits ((1 + 0.5) x 2.2 = 3.3).
 */
const EVENT_WEIGHTS = [5, 3, 3.5, 1, 0.5];
const TAG_WEIGHTS = [2, 1];
/**
 * The typo vocabulary is rebuilt when the catalog changed, but at most this often: a sync writes
 * every few seconds, and a word list a few minutes old suggests as well as a fresh one.
 */
const VOCABULARY_MAX_AGE_MS = 5 * 60_000;
/** Rows per slice of the background word-list read (a few ms each). */
const VOCABULARY_SLICE = 2000;
/** Where the typo word list comes from: event titles, market questions. */
const VOCABULARY_SOURCES = [
  ['events', 'title'],
  ['markets', 'question'],
] as const;

interface VocabularyRead {
  counts: Map<string, number>;
  /** total_changes() when the read began. */
  stamp: number;
  /** Index into VOCABULARY_SOURCES, and the last id read there. */
  table: number;
  after: number;
}

/** Words as unicode61 with remove_diacritics cuts them: letters and digits, case and accents folded. */
function foldedWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The ranked tag counts are a full pass over the market tags: kept this long across writes, as the vocabulary. */
const TAG_COUNTS_MAX_AGE_MS = 60_000;
const K1 = 1.2;
/**
 * Bounds the work of one query (each word loads a doclist; a common one covers every event):
 * words past this many, phrase words included, are ignored.
 */
export const MAX_WORDS = 16;

interface Term {
  tokens: string[];
  prefix: boolean;
}

/** Saturated term frequency: BM25's tf component with b = 0. */
const sat = (tf: number) => (tf * (K1 + 1)) / (tf + K1);

function int32(b: Uint8Array, i: number): number {
  const o = i * 4;
  return b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24);
}

/**
 * Per phrase, from matchinfo 'pcnx' (the same for every row of a query): the documents with a
 * hit in the column where it has most, which stands for its document frequency.
 */
function phraseDocs(mi: Uint8Array): number[] {
  const phrases = int32(mi, 0);
  const cols = int32(mi, 1);
  const out: number[] = [];
  for (let p = 0; p < phrases; p++) {
    let n = 0;
    for (let c = 0; c < cols; c++) n = Math.max(n, int32(mi, 3 + 3 * (p * cols + c) + 2));
    out.push(n);
  }
  return out;
}

/** idf of each phrase from matchinfo 'pcnx'. */
function phraseIdf(mi: Uint8Array): number[] {
  const docs = int32(mi, 2);
  return phraseDocs(mi).map((n) => Math.log(1 + (docs - n + 0.5) / (n + 0.5)));
}

/** The term's tokens follow one another in `tokens` (its last a prefix when the term is one). */
function holds(tokens: readonly string[], term: Term): boolean {
  const n = term.tokens.length;
  for (let i = 0; i + n <= tokens.length; i++) {
    let all = true;
    for (let j = 0; j < n && all; j++) {
      const want = term.tokens[j]!;
      const have = tokens[i + j]!;
      all = term.prefix && j === n - 1 ? have.startsWith(want) : have === want;
    }
    if (all) return true;
  }
  return false;
}

export class SearchReader {
  /** idf x column weight per (phrase, column) of the query being ranked. */
  private weights: Float64Array = new Float64Array(0);
  /** Per phrase of the query being ranked: a prefix term (scored by its best column, once). */
  private prefixes: boolean[] = [];
  /** Where a prefix's title tier ends (titleTier), by token, once a page ran past it; until the next write. */
  private readonly tierEnds: UntilWrite<string, number>;
  /** Events a lone prefix term matches (titleTier's total), by MATCH text, until the next write. */
  private readonly matchCounts: UntilWrite<string, number>;
  /** Documents per term (its MATCH text), until the next write; see idf(). */
  private readonly termDocs: UntilWrite<string, number>;
  private docCount = 0;
  /** Rows ranked by the current query: one call per match, so it is the match count. */
  private ranked = 0;

  private vocab: { words: Vocabulary; stamp: number; at: number } | undefined;
  /** The word list being read (warmVocabulary), if any. */
  private reading: VocabularyRead | undefined;
  private stopped = false;
  private tagCounts: { counts: Map<number, number>; stamp: number; at: number } | undefined;
  /** The clock the vocabulary's and tag counts' ages are read on (tests move it). */
  now: () => number = Date.now;

  /** Answer a lone prefix term's first tier directly (titleTier); false ranks every match, the definition tests compare it with. */
  tiered = true;

  constructor(
    private readonly st: Statements,
    private readonly catalog: CatalogReader,
  ) {
    // Per connection: the query tokenizer (temp schema, never persisted) and the rank function.
    st.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokens USING fts3tokenize('unicode61', 'remove_diacritics=2')`);
    st.db.create_function('search_rank', (mi: Uint8Array) => this.rank(mi));
    this.termDocs = new UntilWrite(st);
    this.tierEnds = new UntilWrite(st);
    this.matchCounts = new UntilWrite(st, 1000);
  }

  /** Per row: matchinfo 'pcy' (hits per phrase and column in this row) against this.weights. */
  private rank(mi: Uint8Array): number {
    this.ranked++;
    const w = this.weights;
    const cols = int32(mi, 1);
    const phrases = Math.min(int32(mi, 0), Math.floor(w.length / cols));
    let score = 0;
    for (let p = 0; p < phrases; p++) {
      const prefix = this.prefixes[p] === true;
      let best = 0;
      for (let c = 0; c < cols; c++) {
        const k = p * cols + c;
        const tf = int32(mi, 2 + k);
        if (tf === 0) continue;
        if (prefix) best = Math.max(best, w[k]!);
        else score += w[k]! * sat(tf);
      }
      score += best;
    }
    return score;
  }

  /**
   * idf per term of a query. A term's document count costs a pass over its whole doclist
   * (about as dear as the ranking itself), and it changes only when the catalog does, so it
   * is kept per term until the next write. A query with any term not kept gets all of them
   * in one 'pcnx' pass.
   */
  private idf(terms: readonly Term[], match: string): number[] | undefined {
    const termDocs = this.termDocs.current();
    const keys = terms.map((t) => SearchReader.matchExpression([t]));
    if (!keys.every((k) => termDocs.has(k))) {
      const globals = this.st.first(`SELECT matchinfo(search_fts, 'pcnx') FROM search_fts WHERE search_fts MATCH ? LIMIT 1`, [match]);
      if (!globals) return undefined;
      const mi = globals[0] as Uint8Array;
      this.docCount = int32(mi, 2);
      for (const [i, n] of phraseDocs(mi).entries()) termDocs.set(keys[i]!, n);
    }
    const docs = this.docCount;
    return keys.map((k) => {
      const n = termDocs.get(k)!;
      return Math.log(1 + (docs - n + 0.5) / (n + 0.5));
    });
  }

  /**
   * Throws when the index disagrees with the rows: FTS4's own integrity check of both tables
   * against their content, and search_order against the events. For tests and diagnostics.
   */
  verify(): void {
    this.st.db.exec(
      `INSERT INTO search_fts(search_fts) VALUES ('integrity-check'); INSERT INTO tag_fts(tag_fts) VALUES ('integrity-check')`,
    );
    const stray = this.st.value(
      'SELECT (SELECT count(*) FROM events e LEFT JOIN search_order o ON o.id = e.id WHERE o.id IS NULL OR o.volume IS NOT e."volume") + ' +
        '(SELECT count(*) FROM search_order WHERE id NOT IN (SELECT id FROM events)) + (SELECT count(*) FROM search_dirty)',
    );
    if (stray !== 0) throw new Error(`search index: ${String(stray)} rows out of step with the events`);
  }

  private tokens(text: string): string[] {
    return this.st.all('SELECT token FROM search_tokens WHERE input = ? ORDER BY position', [text]).map((r) => String(r[0]));
  }

  /** q as terms: bare words one by one, quoted parts as phrases; the last word a prefix. */
  parse(q: string): Term[] {
    const parts = q.split('"');
    const terms: Term[] = [];
    let words = 0;
    let lastClosed = false;
    parts.forEach((part, i) => {
      if (words >= MAX_WORDS) return;
      const quoted = i % 2 === 1;
      const toks = this.tokens(part).slice(0, MAX_WORDS - words);
      if (toks.length === 0) return;
      words += toks.length;
      if (quoted) terms.push({ tokens: toks, prefix: false });
      else for (const t of toks) terms.push({ tokens: [t], prefix: false });
      // A phrase is closed when a quote follows it; an unclosed one is still being typed.
      lastClosed = quoted && i < parts.length - 1;
    });
    const last = terms[terms.length - 1];
    if (last && !lastClosed) last.prefix = true;
    return terms;
  }

  /** The FTS MATCH text: every token quoted (tokens never hold a quote), a phrase per term. */
  static matchExpression(terms: readonly Term[]): string {
    return terms.map((t) => `"${t.tokens.join(' ')}${t.prefix ? '*' : ''}"`).join(' ');
  }

  search(p: ParamsOf<'search.query'>): SearchResult {
    const limit = p.limit_per_type;
    const offset = (p.page - 1) * limit;
    const empty: SearchResult = { events: [], tags: [], pagination: { hasMore: false, totalResults: 0 } };
    const terms = this.parse(p.q);
    if (terms.length === 0) return empty;
    let wallets: string[] | undefined;
    if (p.creator !== undefined) {
      wallets = this.catalog.creatorWallets(p.creator);
      if (wallets.length === 0) return empty; // an unknown site yields nothing (docs/architecture.md, "Decisions": `creator`)
    }
    const match = SearchReader.matchExpression(terms);
    const { ids, total } = this.rankedEvents(terms, match, wallets, limit, offset);
    return {
      events: this.hydrate(ids),
      tags: p.search_tags ? this.tags(terms, match, wallets, limit, offset) : [],
      pagination: { hasMore: offset + ids.length < total, totalResults: total },
    };
  }

  /**
   * GET /desk/search: search() plus, per event, the markets the words matched; and when q matches
   * nothing, the same search with its unknown words replaced by the nearest catalog words.
   */
  desk(p: ParamsOf<'search.desk'>): DeskSearchResult {
    const ask = (q: string) =>
      this.search({ q, limit_per_type: p.limit_per_type, page: p.page, search_tags: p.search_tags, search_profiles: false });
    let q = p.q;
    let result = ask(q);
    let corrected: DeskSearchResult['corrected'];
    if (p.correct && result.pagination.totalResults === 0 && result.tags.length === 0) {
      const fixed = this.corrected(q);
      if (fixed !== undefined) {
        const retry = ask(fixed);
        if (retry.pagination.totalResults > 0 || retry.tags.length > 0) {
          corrected = { q: fixed, from: p.q };
          q = fixed;
          result = retry;
        }
      }
    }
    const marked = this.matchedMarkets(this.parse(q), result.events);
    const events: DeskSearchEvent[] = result.events.map((e) => ({ ...e, matched_markets: marked.get(e.id) ?? [] }));
    return { events, tags: result.tags, pagination: result.pagination, ...(corrected ? { corrected } : {}) };
  }

  /** Tokens of many texts at once, by key, in one statement (the index's own tokenizer). */
  private tokensOf(sql: string, ids: number[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (ids.length === 0) return out;
    for (const [id, token] of this.st.all(sql.replace('$IDS', placeholders(ids.length)), ids)) {
      const key = String(id);
      const list = out.get(key);
      if (list) list.push(String(token));
      else out.set(key, [String(token)]);
    }
    return out;
  }

  /**
   * Per event, its markets that hold (in their question) every term its title does not; none
   * when the title holds them all. A term holds when its tokens follow one another in the text,
   * the last one a prefix when the term is.
   */
  private matchedMarkets(terms: readonly Term[], events: readonly SearchEvent[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (terms.length === 0 || events.length === 0) return out;
    const titles = this.tokensOf(
      'SELECT e.id, t.token FROM events e, temp.search_tokens t WHERE e.id IN ($IDS) AND t.input = e."title" ORDER BY e.id, t.position',
      events.map((e) => Number(e.id)),
    );
    const marketIds = [...new Set(events.flatMap((e) => e.markets.map((m) => Number(m.id))))];
    const questions = this.tokensOf(
      'SELECT m.id, t.token FROM markets m, temp.search_tokens t WHERE m.id IN ($IDS) AND t.input = m."question" ORDER BY m.id, t.position',
      marketIds,
    );
    for (const e of events) {
      const rest = terms.filter((t) => !holds(titles.get(e.id) ?? [], t));
      if (rest.length === 0) continue;
      out.set(
        e.id,
        e.markets.filter((m) => rest.every((t) => holds(questions.get(m.id) ?? [], t))).map((m) => m.id),
      );
    }
    return out;
  }

  /**
   * The word list for typo correction (search-typos.ts). It is read in slices on timers (a
   * full read is seconds at 100k markets, too long for a request): started at open (warmVocabulary)
   * and again when a correction finds it older than VOCABULARY_MAX_AGE_MS with catalog writes
   * since; the last complete list serves meanwhile. Only when there is none, or it was read from an
   * empty catalog, does a request finish the read itself.
   */
  vocabulary(): Vocabulary {
    const stamp = Number(this.st.value('SELECT total_changes()'));
    const v = this.vocab;
    if (v && v.stamp !== stamp && this.now() - v.at >= VOCABULARY_MAX_AGE_MS) this.warmVocabulary();
    if (v && (v.stamp === stamp || v.words.size > 0)) return v.words;
    const read = this.reading ?? this.startReading();
    while (!this.readSlice(read, Number.POSITIVE_INFINITY)) {
      // the whole catalog, now
    }
    return this.vocab!.words;
  }

  /** Starts reading the word list in the background (no-op while one is being read). */
  warmVocabulary(): void {
    if (this.reading) return;
    const read = this.startReading();
    const step = () => {
      if (this.reading !== read || this.stopped) return;
      try {
        if (!this.readSlice(read, VOCABULARY_SLICE)) setTimeout(step, 0).unref?.();
      } catch {
        // The cache was closed under it: nothing to read any more.
        this.reading = undefined;
      }
    };
    setTimeout(step, 0).unref?.();
  }

  /** Stops a background read (the store is closing). */
  stop(): void {
    this.stopped = true;
    this.reading = undefined;
  }

  private startReading(): VocabularyRead {
    const read: VocabularyRead = {
      counts: new Map(),
      stamp: Number(this.st.value('SELECT total_changes()')),
      table: 0,
      after: Number.NEGATIVE_INFINITY,
    };
    this.reading = read;
    return read;
  }

  /**
   * Reads up to `rows` more titles or questions into `read`; true (and the list in place) once done.
   * Tokenized in JS as the index's unicode61 does (letters and digits, case and accents folded):
   * several times faster than the tokenizer table, and a suggestion is only kept when the index
   * finds something for it (desk()).
   */
  private readSlice(read: VocabularyRead, rows: number): boolean {
    const [table, column] = VOCABULARY_SOURCES[read.table]!;
    const limit = Number.isFinite(rows) ? rows : -1;
    const got = this.st.all(`SELECT id, "${column}" FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`, [
      Number.isFinite(read.after) ? read.after : -1,
      limit,
    ]);
    for (const [id, text] of got) {
      read.after = id as number;
      if (typeof text !== 'string') continue;
      for (const w of new Set(foldedWords(text))) read.counts.set(w, (read.counts.get(w) ?? 0) + 1);
    }
    if (limit >= 0 && got.length === limit) return false;
    read.table++;
    read.after = Number.NEGATIVE_INFINITY;
    if (read.table < VOCABULARY_SOURCES.length) return false;
    this.vocab = { words: new Vocabulary(read.counts), stamp: read.stamp, at: this.now() };
    if (this.reading === read) this.reading = undefined;
    return true;
  }

  /** q with each word the catalog does not know replaced by its nearest catalog word; undefined when none is. */
  corrected(q: string): string | undefined {
    const terms = this.parse(q);
    if (terms.length === 0) return undefined;
    const words = this.vocabulary();
    let changed = false;
    const fixed = terms.map((t) => {
      const tokens = t.tokens.map((tok, i) => {
        const better = words.correct(tok, t.prefix && i === t.tokens.length - 1);
        if (better === undefined) return tok;
        changed = true;
        return better;
      });
      return { ...t, tokens };
    });
    if (!changed) return undefined;
    // As parse() reads it back: a phrase quoted; a last word that was not a prefix quoted too, so it stays whole.
    return fixed
      .map((t, i) => (t.tokens.length > 1 || (i === fixed.length - 1 && !t.prefix) ? `"${t.tokens.join(' ')}"` : t.tokens[0]))
      .join(' ');
  }

  /**
   * GET /tags/ranked: tags carried by at least `min_open` open markets, most used first (then by
   * label), plus the tag `id` whatever its count. The counts are one pass over the market tags,
   * kept TAG_COUNTS_MAX_AGE_MS across writes.
   */
  rankedTags(p: ParamsOf<'tags.ranked'>): RankedTags {
    const stamp = Number(this.st.value('SELECT total_changes()'));
    let c = this.tagCounts;
    if (!c || (c.stamp !== stamp && this.now() - c.at >= TAG_COUNTS_MAX_AGE_MS)) {
      const counts = new Map<number, number>();
      for (const [id, n] of this.st.all(
        // The open markets' ids from a covering status index (no 2 KB row read), then market_tags in key
        // order (`+`: not probed per market), so the counts come out grouped with no sort.
        'SELECT tag_id, count(*) FROM market_tags WHERE +market_id IN (SELECT id FROM markets ' +
          'WHERE "closed" = 0 AND "active" = 1 AND "archived" IS NOT 1) GROUP BY tag_id',
      )) {
        counts.set(id as number, n as number);
      }
      c = this.tagCounts = { counts, stamp, at: this.now() };
    }
    const chosen = p.id !== undefined && /^\d+$/.test(p.id) ? Number(p.id) : undefined;
    const rows = this.st.all('SELECT id, "label", "slug" FROM tags');
    const tags: RankedTags['tags'] = [];
    let hidden = 0;
    for (const [id, label, slug] of rows) {
      const n = c.counts.get(id as number) ?? 0;
      if (n < p.min_open && id !== chosen) {
        hidden++;
        continue;
      }
      const tag: RankedTags['tags'][number] = { id: String(id), open_markets: n };
      if (typeof label === 'string') tag.label = label;
      if (typeof slug === 'string') tag.slug = slug;
      tags.push(tag);
    }
    type Ranked = RankedTags['tags'][number];
    const name = (t: Ranked) => t.label ?? t.slug ?? t.id;
    tags.sort((a: Ranked, b: Ranked) => b.open_markets - a.open_markets || name(a).localeCompare(name(b)) || Number(a.id) - Number(b.id));
    return { tags, min_open: p.min_open, hidden };
  }

  /** An event is the site's when it says so itself or one of its markets does (as in listEvents). */
  private creatorFilter(wallets: string[] | undefined, alias: string): { sql: string; bind: Bind } {
    if (!wallets) return { sql: '', bind: [] };
    const list = placeholders(wallets.length);
    return {
      sql:
        `(${alias}._creator_lc IN (${list}) OR ${alias}.id IN (SELECT me.event_id FROM market_events me ` +
        `JOIN markets m ON m.id = me.market_id WHERE m._creator_lc IN (${list})))`,
      bind: [...wallets, ...wallets],
    };
  }

  private rankedEvents(
    terms: readonly Term[],
    match: string,
    wallets: string[] | undefined,
    limit: number,
    offset: number,
  ): { ids: number[]; total: number } {
    // With one term, idf scales every score alike and cannot change the order: skip it.
    const idf = terms.length > 1 ? this.idf(terms, match) : [1];
    if (!idf) return { ids: [], total: 0 };
    const cols = SEARCH_COLUMNS.length;
    this.weights = new Float64Array(idf.length * cols);
    this.prefixes = terms.map((t) => t.prefix);
    for (let p = 0; p < idf.length; p++) {
      for (let c = 0; c < EVENT_WEIGHTS.length; c++) this.weights[p * cols + c] = idf[p]! * EVENT_WEIGHTS[c]!;
    }

    // Volume from the narrow search_order table; the events rows only for the creator filter.
    const creator = this.creatorFilter(wallets, 'e');
    if (!creator.sql && this.tiered) {
      const page = this.titleTier(terms, match, limit, offset);
      if (page) return page;
    }
    const join = creator.sql ? ` JOIN events e ON e.id = s.docid WHERE ${creator.sql}` : '';
    this.ranked = 0;
    const ids = this.st
      .all(
        `SELECT s.docid FROM (SELECT docid, search_rank(matchinfo(search_fts, 'pcy')) AS score ` +
          'FROM search_fts WHERE search_fts MATCH ?) s ' +
          `JOIN search_order o ON o.id = s.docid${join} ` +
          `ORDER BY s.score DESC, o.volume IS NULL, o.volume DESC, o.id LIMIT ? OFFSET ?`,
        // Past 2^53 no catalog has that many rows; SQLite wants an integer there.
        [match, ...creator.bind, limit, Math.min(offset, Number.MAX_SAFE_INTEGER)],
      )
      .map((r) => r[0] as number);
    // Every match was ranked once (ORDER BY needs all scores), so without a filter the count of
    // rank calls is the total and a second pass over the doclists is saved.
    const total = creator.sql
      ? Number(
          this.st.value(
            `SELECT count(*) FROM search_fts JOIN events e ON e.id = search_fts.docid WHERE search_fts MATCH ? AND ${creator.sql}`,
            [match, ...creator.bind],
          ) ?? 0,
        )
      : this.ranked;
    return { ids, total };
  }

  /**
   * A lone prefix term ("b", the first keystroke) scores by the best column it hits, once: every
   * event with a title hit outranks every other, and volume orders them. So a page inside that
   * first tier is the title matches in volume order, read without calling the rank function for
   * each of the term's matches (a one-letter prefix matches every event: 400,102 calls at a
   * million markets). Undefined when the page runs past the tier (the caller ranks everything).
   */
  private titleTier(terms: readonly Term[], match: string, limit: number, offset: number): { ids: number[]; total: number } | undefined {
    const term = terms.length === 1 ? terms[0]! : undefined;
    if (!term?.prefix || term.tokens.length !== 1 || offset > Number.MAX_SAFE_INTEGER) return undefined;
    const token = term.tokens[0]!;
    const end = this.tierEnds.current().get(token);
    if (end !== undefined && offset + limit > end) return undefined;
    // A token is letters and digits only (unicode61), so it needs no quoting after the column filter.
    const ids = this.st
      .all(
        'SELECT s.docid FROM search_fts s JOIN search_order o ON o.id = s.docid WHERE search_fts MATCH ? ' +
          'ORDER BY o.volume IS NULL, o.volume DESC, o.id LIMIT ? OFFSET ?',
        [`title:${token}*`, limit, offset],
      )
      .map((r) => r[0] as number);
    if (ids.length < limit) {
      // Past the tier: later pages go straight to the ranking, until the next write.
      this.tierEnds.current().set(token, offset + ids.length);
      return undefined;
    }
    // The match count is a statistic of the catalog like a term's document count: kept until the next write.
    const total = this.matchCounts.get(match, () =>
      Number(
        this.st.value('SELECT count(*) FROM search_fts s JOIN search_order o ON o.id = s.docid WHERE search_fts MATCH ?', [match]) ?? 0,
      ),
    );
    return { ids, total };
  }

  /**
   * EventRef plus every market of the event (closed ones too), in the page's order. The markets
   * are whole (every cached field) less `events`, as Gamma and /events nest them: Polymarket's
   * schema requires fields a projection left out (`marketMakerAddress`, for one).
   */
  private hydrate(ids: number[]): SearchEvent[] {
    if (ids.length === 0) return [];
    const list = placeholders(ids.length);
    const byId = new Map<number, SearchEvent>();
    for (const [id, ticker, slug, title] of this.st.all(`SELECT id, "ticker", "slug", "title" FROM events WHERE id IN (${list})`, ids)) {
      const ev: SearchEvent = { id: String(id), markets: [] };
      if (typeof ticker === 'string') ev.ticker = ticker;
      if (typeof slug === 'string') ev.slug = slug;
      if (typeof title === 'string') ev.title = title;
      byId.set(id as number, ev);
    }
    for (const row of this.st.all(
      `SELECT me.event_id, ${MARKET_COLS} FROM market_events me JOIN markets m ON m.id = me.market_id ` +
        `WHERE me.event_id IN (${list}) ORDER BY me.event_id, me.position, m.id`,
      ids,
    )) {
      byId.get(row[0] as number)?.markets.push(mapMarket(row.slice(1)));
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Tags by relevance, then by how many cached events carry them, then id. Tags are few
   * (hundreds to thousands), so all matches are ranked here in JS. A tag no cached event
   * carries is left out (it leads nowhere); with `creator`, only the site's events count.
   * A prefix term scores its best column once, as for events.
   */
  private tags(terms: readonly Term[], match: string, wallets: string[] | undefined, limit: number, offset: number): SearchTag[] {
    const creator = this.creatorFilter(wallets, 'e');
    const counted = creator.sql
      ? `SELECT count(*) FROM event_tags et JOIN events e ON e.id = et.event_id WHERE et.tag_id = tag_fts.docid AND ${creator.sql}`
      : 'SELECT count(*) FROM event_tags et WHERE et.tag_id = tag_fts.docid';
    const rows = this.st.all(`SELECT docid, matchinfo(tag_fts, 'pcnx'), (${counted}) FROM tag_fts WHERE tag_fts MATCH ?`, [
      ...creator.bind,
      match,
    ]);
    if (rows.length === 0) return [];
    const idf = phraseIdf(rows[0]![1] as Uint8Array);
    const ranked = rows
      .map(([id, mi, events]) => {
        const b = mi as Uint8Array;
        const cols = int32(b, 1);
        let score = 0;
        for (let p = 0; p < idf.length; p++) {
          let best = 0;
          for (let c = 0; c < TAG_WEIGHTS.length; c++) {
            const tf = int32(b, 3 + 3 * (p * cols + c));
            if (terms[p]?.prefix) best = Math.max(best, tf > 0 ? TAG_WEIGHTS[c]! : 0);
            else score += idf[p]! * TAG_WEIGHTS[c]! * sat(tf);
          }
          score += idf[p]! * best;
        }
        return { id: id as number, score, events: events as number };
      })
      .filter((t) => t.events > 0)
      .sort((a, b) => b.score - a.score || b.events - a.events || a.id - b.id)
      .slice(offset, offset + limit);
    if (ranked.length === 0) return [];
    const fields = new Map(
      this.st
        .all(
          `SELECT id, "label", "slug" FROM tags WHERE id IN (${placeholders(ranked.length)})`,
          ranked.map((t) => t.id),
        )
        .map((r) => [r[0] as number, r]),
    );
    return ranked.map((t) => {
      const tag: SearchTag = { id: String(t.id), event_count: t.events };
      const [, label, slug] = fields.get(t.id) ?? [];
      if (typeof label === 'string') tag.label = label;
      if (typeof slug === 'string') tag.slug = slug;
      return tag;
    });
  }
}
