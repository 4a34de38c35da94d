/**
 * Web mode's push events: Server-Sent Events at GET /stream on the base face. Each event is
 * `event: <name>` + `data: <JSON>` (src/contract/push.ts); a new client first gets the
 * current value of every event, so it never has to poll /status to catch up.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest, LIVE_CLIENT_PATTERN } from '../contract/index.ts';
import { STREAM_PATH } from '../contract/push.ts';
import type { PushHub } from '../service/push.ts';

/** Open streams are bounded like everything else a client can hold open. */
const MAX_STREAMS = 32;
/** Comment lines keep idle proxies and the browser from timing the stream out. */
const KEEPALIVE_MS = 15_000;

export function registerPushStream(app: FastifyInstance, hub: PushHub): void {
  let open = 0;
  app.get(STREAM_PATH, (req, reply) => {
    // The live view this stream carries (`live.view`'s `client`): its quotes come here only.
    const client = (req.query as Record<string, unknown>)['client'];
    if (client !== undefined && (typeof client !== 'string' || !LIVE_CLIENT_PATTERN.test(client))) {
      const e = badRequest('catalog', 'client must be 1-64 letters, digits, "-" or "_"');
      return reply.code(e.status).type('application/json').send(e.body);
    }
    if (open >= MAX_STREAMS) {
      return reply.code(503).type('application/json').send({ type: 'unavailable', error: 'too many open streams' });
    }
    open++;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    const send = (name: string, payload: unknown) => {
      res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    // EventSource reconnects after this many ms when the service restarts.
    res.write('retry: 1000\n\n');
    for (const [name, payload] of Object.entries(hub.snapshot())) send(name, payload);
    const unsubscribe = hub.subscribe(send, client);
    const ping = setInterval(() => res.write(': ping\n\n'), KEEPALIVE_MS);
    ping.unref();
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      open--;
      clearInterval(ping);
      unsubscribe();
    };
    req.raw.on('close', end);
    res.on('close', end);
  });
}
