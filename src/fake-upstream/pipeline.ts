/**
 * The fake upstream's request path, in front of its routes (router.ts): read the body, answer
 * CDN pictures, apply the edge's rate limits, then a scripted fault or the route's reply, and
 * log it. Plain node:http rather than a framework: faults need raw control of the socket
 * (half-written bodies, requests that never answer).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Fault, FaultScript } from './faults.ts';
import type { ImageReply } from './images.ts';
import type { FakeLimits } from './limits.ts';
import type { RequestLog, RequestLogEntry } from './request-log.ts';
import type { FakeRouter, Reply } from './router.ts';

export interface PipelineOptions {
  router: FakeRouter;
  faults: FaultScript;
  requests: RequestLog;
  /** Present when limits are enforced. */
  limits: FakeLimits | undefined;
  /** Print one line per request to stdout. */
  log?: boolean;
}

/** One request on its way through: what it asked and where its answer goes. */
interface Exchange {
  res: ServerResponse;
  entry: RequestLogEntry;
  t0: number;
  method: string;
  path: string;
  q: URLSearchParams;
  headers: IncomingHttpHeaders;
}

const INTERNAL_ERROR = JSON.stringify({ type: 'internal error', error: 'cannot get the information' });

function queryRecord(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    out[k] = all.length === 1 ? (all[0] as string) : all;
  }
  return out;
}

export class Pipeline {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;

  constructor(private readonly opts: PipelineOptions) {}

  /** Refuses new requests and drops the pending `slow` answers (the server closes the sockets). */
  close(): void {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Reads a write's body first (bounded: 1 MiB), then handles the request. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'POST' && req.method !== 'DELETE') {
      this.handleWith(req, res, '');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1 << 20) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => this.handleWith(req, res, Buffer.concat(chunks).toString('utf8')));
  };

  private handleWith(req: IncomingMessage, res: ServerResponse, body: string): void {
    const t0 = performance.now();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    let path = qi < 0 ? url : url.slice(0, qi);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const entry: RequestLogEntry = { method, path, query: queryRecord(q), status: 0, time: Date.now() };
    if (this.closing) {
      res.destroy();
      return;
    }
    const x: Exchange = { res, entry, t0, method, path, q, headers: req.headers };
    // Pictures stand for a CDN, not the API: no API limits or faults apply to them.
    const asset = this.opts.router.assetOf(method, path);
    if (asset) {
      this.sendAsset(x, asset);
      return;
    }
    if (this.limited(x, req.socket.remoteAddress ?? '')) return;
    const fault = this.opts.faults.take({ method, path, query: q });
    if (fault) this.applyFault(fault, x);
    else this.answer(x, body);
  }

  private sendAsset(x: Exchange, asset: Promise<ImageReply>): void {
    void asset.then(
      (img) => {
        x.entry.status = img.status;
        x.res.writeHead(img.status, { 'content-type': img.contentType, 'content-length': String(img.body.length) });
        x.res.end(x.method === 'HEAD' ? undefined : img.body);
        this.finish(x);
      },
      (err: unknown) => {
        console.error('fake-upstream: image error', err);
        x.res.destroy();
      },
    );
  }

  /** The edge throttles before anything else, as Cloudflare does in front of the real APIs: true when it refused. */
  private limited(x: Exchange, address: string): boolean {
    if (!this.opts.limits) return false;
    const { decision: d, catalog: cat } = this.opts.limits.check(x.method, x.path, address, x.headers);
    if (d.admitted) return false;
    x.entry.limited = true;
    this.send(x, {
      status: 429,
      body: JSON.stringify(cat ? { type: 'too many requests', error: 'rate limit exceeded' } : { error: 'rate limit exceeded' }),
      headers: { 'retry-after': String(d.retryAfterS), 'ratelimit-policy': d.policy, ratelimit: d.rateLimit },
    });
    return true;
  }

  private reply(x: Exchange, body: string): Reply {
    return this.opts.router.dispatch({ method: x.method, path: x.path, query: x.q, headers: x.headers, body });
  }

  private answer(x: Exchange, body = ''): void {
    let reply: Reply;
    try {
      reply = this.reply(x, body);
    } catch (err) {
      // A bug in the fake should look like an upstream 500 to the client and still be visible here.
      console.error('fake-upstream: handler error', err);
      reply = { status: 500, body: INTERNAL_ERROR };
    }
    this.send(x, reply);
  }

  /** A delayed or dropped answer is the route's answer to the request without its body. */
  private applyFault(fault: Fault, x: Exchange): void {
    x.entry.fault = fault.kind;
    switch (fault.kind) {
      case '429':
        this.send(x, {
          status: 429,
          body: JSON.stringify({ type: 'too many requests', error: 'rate limit exceeded' }),
          headers: { 'retry-after': String(fault.retryAfter ?? 1) },
        });
        return;
      case '500':
        this.send(x, { status: 500, body: INTERNAL_ERROR });
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!x.res.destroyed) this.answer(x);
        }, fault.ms);
        this.timers.add(timer);
        return;
      }
      case 'hang':
        // Logged now so tests can wait for the request to have arrived; close() ends the socket.
        this.opts.requests.add(x.entry);
        return;
      case 'drop':
        this.drop(x);
        return;
    }
  }

  /** Half the promised body, then the connection dies: the client sees a truncated response. */
  private drop(x: Exchange): void {
    const reply = this.reply(x, '');
    const buf = Buffer.from(typeof reply.body === 'string' ? reply.body : reply.body.join(''), 'utf8');
    x.entry.status = reply.status;
    x.res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(buf.length) });
    x.res.write(buf.subarray(0, Math.max(1, buf.length >> 1)), () => x.res.socket?.destroy());
    this.finish(x);
  }

  /**
   * Writes the reply. A page goes out as its item strings (corked into one writev) rather than one
   * joined string: a 0.5 MB string per page lands in V8's large-object space, grows the old
   * generation and brings on full collections over the whole catalog heap (measured: ~15% more
   * server CPU over a 100k-market walk).
   */
  private send(x: Exchange, reply: Reply): void {
    x.entry.status = reply.status;
    const chunks = typeof reply.body === 'string' ? [reply.body] : reply.body;
    let length = 0;
    for (const c of chunks) length += Buffer.byteLength(c, 'utf8');
    x.res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(length),
      ...reply.headers,
    });
    x.res.cork();
    for (const c of chunks) x.res.write(c);
    x.res.end();
    x.res.uncork();
    this.finish(x);
  }

  private finish({ entry, t0 }: Exchange): void {
    entry.ms = performance.now() - t0;
    this.opts.requests.add(entry);
    if (this.opts.log)
      console.log(`${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)}ms${entry.fault ? ` [${entry.fault}]` : ''}`);
  }
}
