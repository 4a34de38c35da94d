/**
 * The live bench's fan-out load (bench/live.ts), in its own process so that reading their frames
 * never delays the bench's timed subscribers: N `ws` subscribers on the service's `/ws/market`,
 * each on every asset of the bench's upstream (`GET CONTROL/assets`), as N users' scripts would be.
 * Prints `load ready` once each was sent its books, then every second `load frames F closed C`
 * (frames read by all of them so far; sockets the service closed, with their codes).
 * Usage: tsx bench/live-load.ts CHANNEL CONTROL N
 */
import WebSocket from 'ws';

const [channel, control, count] = process.argv.slice(2) as [string, string, string];
const assets = (await (await fetch(`${control}/assets`)).json()) as string[];
let frames = 0;
const closed: number[] = [];
const booked = new Set<WebSocket>();
const sockets: WebSocket[] = [];
for (let i = 0; i < Number(count); i++) {
  const ws = new WebSocket(channel, { perMessageDeflate: false });
  sockets.push(ws);
  ws.on('error', () => {});
  ws.on('close', (code) => closed.push(code));
  ws.on('message', (data: Buffer) => {
    frames++;
    // The first frame is the service's dump of the books it holds.
    if (!booked.has(ws) && data.toString('latin1', 0, 21) === '[{"event_type":"book"') {
      booked.add(ws);
      if (booked.size === sockets.length) console.log('load ready');
    }
  });
}
await Promise.all(sockets.map((ws) => new Promise((resolve) => ws.once('open', resolve))));
for (const ws of sockets) ws.send(JSON.stringify({ assets_ids: assets, type: 'market' }));
const timer = setInterval(
  () => console.log(`load frames ${frames} closed ${closed.length}${closed.length ? ` (${closed.join(',')})` : ''}`),
  1000,
);
process.on('SIGTERM', () => {
  clearInterval(timer);
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
