/**
 * `npm run bench -- --only alerts`: evaluating 1,000 alert rules after a sync (issue 16: < 50 ms
 * at 100,000 markets), in this process on a copy of the bench cache (no built CLI needed).
 *
 * The cache first gets 12 simulated hours of history (hourly syncs moving 1,000 markets, the rules'
 * targets among them). Then each round is one simulated sync a minute later, written as a sync
 * writes it (pages of 100): 500 prices move (the rules' markets first), 5 markets open (some
 * matching the text rules), 10 rules and 5 end dates are edited. After each, timed: the whole
 * evaluation (reads, evaluate, state and log kept in memory), its reads alone, and, as the
 * floor, an engine with 0 rules. Rules: 300 price_cross, 200 price_move (windows 1, 6, 24, 168 h),
 * 100 new_match (5 screens, 10 search words), 150 rule_edit and 150 ends_soon (markets, events,
 * the watchlist of 200 markets and 20 events), 100 order_done (evaluated on orders refreshes, not here).
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AlertEngine, type NewRule } from '../src/alerts/alert-engine.ts';
import { evaluateCatalog } from '../src/alerts/evaluate.ts';
import { FiredLog } from '../src/alerts/fired-log.ts';
import { AlertRulesFile } from '../src/alerts/rules-file.ts';
import { sqliteAlertReads, type AlertReads } from '../src/alerts/store-reads.ts';
import { CatalogStore } from '../src/store/catalog-store.ts';
import type { Screen } from '../src/contract/index.ts';
import { ScreensFile } from '../src/store/screens-file.ts';
import type { GammaMarket } from '../src/contract/gamma.ts';
import { percentile, table } from './lib.ts';
// Seeded, so runs compare.
import { mulberry32 as rng } from '../src/fake-upstream/prng.ts';

const ROUNDS = Number(process.env['ALERTS_BENCH_ROUNDS'] ?? 40);
const WARMUP_ROUNDS = 3;
const PAGE = 100;
const WORDS_WANTED = 10;

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
const r2 = (x: number) => Math.round(x * 100) / 100;

function stats(times: number[]): { p50: number; p95: number; p99: number; max: number } {
  const s = [...times].sort((a, b) => a - b);
  return { p50: r2(percentile(s, 50)), p95: r2(percentile(s, 95)), p99: r2(percentile(s, 99)), max: r2(s[s.length - 1]!) };
}

export async function benchAlerts(cacheDir: string, markets: number): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const src = path.join(cacheDir, 'catalog.sqlite');
  if (!existsSync(src)) throw new Error(`${src} is missing: run \`npm run bench -- --only sync\` first`);
  if (existsSync(`${src}-wal`)) throw new Error(`${src} has a WAL: another run is writing it`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-alerts-'));
  copyFileSync(src, path.join(dir, 'catalog.sqlite'));
  const store = await CatalogStore.open({ dataDir: dir });
  try {
    const st = store.statements;
    const random = rng(21);
    let clock = Date.now();
    store.recorder.now = () => clock;
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

    const open = st
      .all('SELECT id FROM markets WHERE "closed" IS NOT 1 AND "outcomePrices" IS NOT NULL AND _end_ts IS NOT NULL ORDER BY id')
      .map((r) => String(r[0]));
    const openEvents = st.all('SELECT id FROM events WHERE "closed" IS NOT 1 ORDER BY id LIMIT 5000').map((r) => String(r[0]));
    const base = new Map<string, GammaMarket>();
    const price = new Map<string, number>();
    const load = (id: string) => {
      if (base.has(id)) return;
      const m = store.reader.getMarket(Number(id)) as unknown as GammaMarket;
      base.set(id, m);
      price.set(id, Number((JSON.parse(String(m.outcomePrices)) as string[])[0]) || 0.5);
    };
    const sample = (n: number) => Array.from({ length: n }, () => pick(open));

    // Words of a few hundred questions, each in a handful of them: the text rules' words.
    const counts = new Map<string, number>();
    for (const id of sample(400)) {
      load(id);
      for (const w of new Set(
        String(base.get(id)!.question ?? '')
          .toLowerCase()
          .split(/[^a-z]+/),
      ))
        if (w.length >= 5) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    const words = [...counts]
      .filter(([, c]) => c >= 2 && c <= 20)
      .map(([w]) => w)
      .slice(0, WORDS_WANTED);

    // The service's side files, in memory.
    const screensFile = await ScreensFile.open();
    const screens: Screen[] = [];
    for (let i = 0; i < 5; i++) {
      screens.push(
        await screensFile.add({
          name: `screen ${i}`,
          kind: 'markets',
          params: {
            md_chance_min: String(0.1 + i * 0.05),
            md_chance_max: String(0.9 - i * 0.05),
            md_volume_min: String(i * 100),
            closed: 'false',
          },
        }),
      );
    }
    const watch = { markets: sample(200), events: Array.from({ length: 20 }, () => pick(openEvents)) };
    // Each read's time, summed per method over the measured rounds (where the reads' time goes).
    const spent = new Map<string, number>();
    let counting = false;
    const plain = sqliteAlertReads(st, store.reader, store.search);
    const reads = Object.fromEntries(
      Object.entries(plain).map(([name, fn]) => [
        name,
        (...args: unknown[]) => {
          const t0 = performance.now();
          try {
            return (fn as (...a: unknown[]) => unknown)(...args);
          } finally {
            if (counting) spent.set(name, (spent.get(name) ?? 0) + performance.now() - t0);
          }
        },
      ]),
    ) as unknown as AlertReads;
    const engineWith = async () => {
      const rules = await AlertRulesFile.open();
      const fired = await FiredLog.open();
      const screen = (id: string) => screens.find((s) => s.id === id);
      return { rules, engine: new AlertEngine({ rules, fired, reads, watched: () => watch, screen, now: () => clock }) };
    };
    const { rules: rulesFile, engine } = await engineWith();
    const empty = (await engineWith()).engine;

    // 1,000 mixed rules.
    const ref = (id: string) => {
      load(id);
      const m = base.get(id)!;
      return { id, slug: m.slug ?? null, question: m.question ?? null };
    };
    const add = (r: Omit<NewRule, 'label'>) => engine.add({ label: 'bench', ...r });
    const targets: string[] = [];
    for (let i = 0; i < 300; i++) {
      const id = pick(open);
      targets.push(id);
      load(id);
      add({ kind: 'price_cross', market: ref(id), level: r2(Math.min(0.95, Math.max(0.05, price.get(id)! + (random() - 0.5) * 0.2))) });
    }
    for (let i = 0; i < 200; i++) {
      const id = pick(open);
      targets.push(id);
      add({ kind: 'price_move', market: ref(id), points: 0.03 + (i % 5) * 0.01, windowHours: [1, 6, 24, 168][i % 4]! });
    }
    for (let i = 0; i < 100; i++)
      add(i % 2 ? { kind: 'new_match', screen: screens[i % 5]!.id } : { kind: 'new_match', q: words[i % words.length] ?? 'will' });
    for (let i = 0; i < 150; i++) {
      const target = i < 100 ? { market: ref(pick(open)) } : i < 130 ? { event: { id: pick(openEvents), slug: null, title: null } } : {};
      add({ kind: 'rule_edit', ...target });
      add({ kind: 'ends_soon', hours: 24 * (1 + (i % 14)), ...target });
    }
    for (let i = 0; i < 100; i++) add({ kind: 'order_done' });
    const ruleCount = rulesFile.all().length;

    let nextId = Number(st.value('SELECT max(id) FROM markets')) + 1;
    const moved = (id: string, jump: number): GammaMarket => {
      load(id);
      const p = r4(Math.min(0.99, Math.max(0.01, price.get(id)! + jump)));
      price.set(id, p);
      return {
        ...base.get(id)!,
        outcomePrices: JSON.stringify([String(p), String(r4(1 - p))]),
        lastTradePrice: p,
        updatedAt: new Date(clock).toISOString(),
      };
    };
    const write = (items: GammaMarket[]) => {
      for (let i = 0; i < items.length; i += PAGE) store.apply({ markets: items.slice(i, i + PAGE) });
    };
    /** One sync's changes: `n` prices (the rules' markets first), 5 new markets, 10 rule edits, 5 end dates. */
    const sync = (n: number) => {
      const ids = [...new Set([...targets.slice(0, Math.min(targets.length, n * 0.6)), ...sample(n)])].slice(0, n);
      const items = ids.map((id) => moved(id, (random() - 0.5) * 0.02 + (random() < 0.03 ? (random() - 0.5) * 0.2 : 0)));
      for (let i = 0; i < 5; i++) {
        const like = base.get(pick(targets))!;
        const id = String(nextId++);
        items.push({
          ...like,
          id,
          slug: `bench-new-${id}`,
          question: `Will the ${words[i % words.length] ?? 'new'} thing ${id} happen?`,
          conditionId: `0x${randomBytes(32).toString('hex')}`,
          updatedAt: new Date(clock).toISOString(),
        });
      }
      for (let i = 0; i < 10; i++) {
        const id = i < 5 ? pick(targets) : pick(watch.markets);
        load(id);
        items.push({ ...base.get(id)!, description: `Edited at ${clock} (${i}).`, updatedAt: new Date(clock).toISOString() });
      }
      for (let i = 0; i < 5; i++) {
        const id = pick(watch.markets);
        load(id);
        items.push({
          ...base.get(id)!,
          endDate: new Date(clock + (1 + random() * 100) * 3_600_000).toISOString(),
          updatedAt: new Date(clock).toISOString(),
        });
      }
      write(items);
    };

    // 12 simulated hours of history.
    clock -= 13 * 3_600_000;
    for (let h = 0; h < 12; h++) {
      clock += 3_600_000;
      sync(1000);
    }
    engine.evaluateCatalog();

    const wall: Record<string, number[]> = { full: [], reads: [], evaluate: [], none: [] };
    const cpu: Record<string, number[]> = { full: [], reads: [], evaluate: [], none: [] };
    const byKind = new Map<string, number>();
    let fired = 0;
    const rules = rulesFile.all().filter((r) => r.kind !== 'order_done');
    /** Wall and CPU ms of `fn` (CPU: this process's; on a shared machine wall time carries the others' load). */
    const time = <T>(key: string, keep: boolean, fn: () => T): T => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const out = fn();
      const t = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (keep) {
        wall[key]!.push(t);
        cpu[key]!.push((c.user + c.system) / 1000);
      }
      return out;
    };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      clock += 60_000;
      sync(500);
      const keep = round >= WARMUP_ROUNDS;
      const inputs = time('reads', keep, () => engine.readInputs(rules));
      time('evaluate', keep, () => evaluateCatalog(rules, inputs));
      counting = keep;
      const f = time('full', keep, () => engine.evaluateCatalog());
      counting = false;
      time('none', keep, () => empty.evaluateCatalog());
      if (!keep) continue;
      fired += f.length;
      for (const x of f) byKind.set(x.kind, (byKind.get(x.kind) ?? 0) + 1);
    }
    const rows: [string, string][] = [
      [`evaluation of ${ruleCount} rules after a sync (reads + evaluate + state + log)`, 'full'],
      ['its reads alone (prices, windows, revisions, new items, matches)', 'reads'],
      ['evaluate() alone, on those reads (pure)', 'evaluate'],
      ['baseline: an engine with 0 rules', 'none'],
    ];
    const latency = Object.fromEntries(
      rows.map(([name, key]) => [name, { ...stats(wall[key]!), cpuP50: stats(cpu[key]!).p50, cpuP99: stats(cpu[key]!).p99 }]),
    );
    const perKind = [...byKind].map(([k, n]) => `${k} ${r2(n / ROUNDS)}`).join(', ');
    return {
      results: {
        markets,
        rules: ruleCount,
        rounds: ROUNDS,
        firedPerRound: r2(fired / ROUNDS),
        latency,
        readsMs: Object.fromEntries([...spent].map(([k, v]) => [k, r2(v / ROUNDS)])),
      },
      report: [
        `### Alerts: evaluating 1,000 rules after a sync, ${markets.toLocaleString('en-US')} markets ` +
          `(${ROUNDS} syncs, after ${WARMUP_ROUNDS} warm-up), ms`,
        'Each sync: 500 prices moved, 5 new markets, 10 rule edits, 5 end dates. ' +
          `Firings per evaluation: ${r2(fired / ROUNDS)} (${perKind}).`,
        table(
          ['step', 'p50', 'p95', 'p99', 'max', 'CPU p50', 'CPU p99'],
          rows.map(([name]) => {
            const l = latency[name]!;
            return [name, l.p50, l.p95, l.p99, l.max, l.cpuP50, l.cpuP99];
          }),
        ),
        `Where the evaluation's reads go (mean ms per evaluation): ${[...spent]
          .map(([name, ms]) => `${name} ${r2(ms / ROUNDS)}`)
          .join(', ')}.`,
      ],
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
