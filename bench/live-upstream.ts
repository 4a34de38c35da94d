/**
 * The live bench's upstream (bench/live.ts), in its own process so its sends never wait on the
 * bench's receiving: the fake upstream on a synthetic catalog (MARKETS markets, seed 1), its
 * market channel walking from SEED on a wall clock, and a control server of its own:
 *   - GET  /clock: this process's epoch ms (performance.timeOrigin + performance.now()), to
 *     calibrate the bench's clock against;
 *   - GET  /assets: the ASSETS trading ids the bench subscribes (both outcomes of the open markets
 *     of highest 24h volume, so the grid's first rows are among them);
 *   - GET  /sent: drains the send records, a flat JSON array [timestamp, sentAt, assetIndex, …]: the
 *     timestamp every event of a step carries (strictly increasing, so a per-message id), when the
 *     fake handed the step's frames to the sockets (the market channel's `sent` hook), and the
 *     asset's index in /assets (-1 for another asset);
 *   - POST /rate?n=N: steps a second (0 stops); POST /drop, /freeze, /thaw: the channel's faults,
 *     answering when (epoch ms);
 *   - GET  /replaced?after=T: waits until every socket that was open at the freeze is closed and as
 *     many new ones opened; answers the new sockets' connection times (epoch ms);
 *   - GET  /groups: the open sockets' assets, as indexes in /assets;
 *   - POST /books: the fake's own books of the indexes in the body (`marketWs.book`).
 * Usage: tsx bench/live-upstream.ts MARKETS ASSETS SEED
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tradingIds } from '../src/contract/market-rules.ts';
import { createSyntheticCatalog, startFakeUpstream } from '../src/fake-upstream/index.ts';
import type { MarketEvent } from '../src/fake-upstream/market-ws.ts';

const [markets, wanted, seed] = process.argv.slice(2).map(Number) as [number, number, number];
const epoch = () => performance.timeOrigin + performance.now();
const catalog = createSyntheticCatalog({ markets, seed: 1 });

let index = new Map<string, number>();
const sent: number[] = [];
const record = (events: readonly MarketEvent[]) => {
  const e = events[0]!;
  const ts = Number(e['timestamp']);
  if (!Number.isFinite(ts)) return;
  const changes = e['price_changes'] as { asset_id: string }[] | undefined;
  const asset = String(changes?.[0]?.asset_id ?? e['asset_id']);
  sent.push(ts, epoch(), index.get(asset) ?? -1);
};

// Event timestamps on the wall clock, as the real channel's: the renderer shows their age.
const upstream = await startFakeUpstream({
  catalog,
  limits: 'off',
  trading: { now: () => Date.now() },
  marketWs: { seed, rate: 0, sent: record },
});
const ws = upstream.marketWs;

const open = catalog
  .marketRecords()
  .map((r) => catalog.getMarket(r.id))
  .filter((m) => m !== undefined && m.closed !== true)
  .sort((a, b) => Number(b!['volume24hr'] ?? 0) - Number(a!['volume24hr'] ?? 0));
const assets: string[] = [];
for (const m of open) {
  const t = tradingIds(m!);
  if (!t.ok) continue;
  for (const id of t.ids) if (assets.length < wanted && ws.book(id)) assets.push(id);
}
if (assets.length < wanted) throw new Error(`the catalog has ${assets.length} tradable outcomes, not ${wanted}`);
index = new Map(assets.map((id, i) => [id, i]));

let frozenOpen: number[] = [];

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const reply = (value: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  let body = '';
  req.on('data', (d: Buffer) => {
    body += d.toString();
  });
  req.on('end', () => {
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /clock':
        return reply(epoch());
      case 'GET /assets':
        return reply(assets);
      case 'GET /sent':
        return reply(sent.splice(0));
      case 'POST /rate':
        ws.start(Number(url.searchParams.get('n')));
        return reply(epoch());
      case 'POST /drop': {
        const at = epoch();
        ws.faults.drop();
        return reply(at);
      }
      case 'POST /freeze': {
        frozenOpen = ws
          .sockets()
          .filter((s) => s.open)
          .map((s) => s.id);
        const at = epoch();
        ws.faults.freeze();
        return reply(at);
      }
      case 'POST /thaw':
        ws.faults.thaw();
        return reply(epoch());
      case 'GET /replaced': {
        const before = new Set(frozenOpen);
        // Sockets are numbered in connection order: the new ones come after every one open at the freeze.
        const newest = Math.max(0, ...frozenOpen);
        const openedAt = new Map<number, number>();
        const done = () => {
          const socks = ws.sockets();
          for (const s of socks) if (s.id > newest && !openedAt.has(s.id)) openedAt.set(s.id, epoch());
          return socks.every((s) => !before.has(s.id) || !s.open) && openedAt.size >= before.size;
        };
        ws.until(done, 120_000).then(
          () => reply([...openedAt.values()].slice(0, before.size)),
          (e: Error) => reply({ error: e.message }, 500),
        );
        return;
      }
      case 'GET /groups':
        return reply(
          ws
            .sockets()
            .filter((s) => s.open)
            .map((s) => s.assets.map((a) => index.get(a) ?? -1)),
        );
      case 'POST /books': {
        const wantedIdx = JSON.parse(body) as number[];
        return reply(
          wantedIdx.map((i) => {
            const b = ws.book(assets[i]!);
            return b ? { asset_id: b.asset_id, bids: b.bids, asks: b.asks, tick_size: b.tick_size } : null;
          }),
        );
      }
      default:
        return reply({ error: 'unknown' }, 404);
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const control = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`live upstream listening on ${upstream.url} ws ${ws.url} control ${control} seed ${ws.seed}`);
process.on('SIGTERM', () => {
  server.close();
  void upstream.close().then(() => process.exit(0));
});
