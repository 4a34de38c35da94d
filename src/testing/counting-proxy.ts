/**
 * A pass-through HTTP proxy that records every request line, so a test can bound how many
 * requests a third-party client (which brings its own HTTP stack) sends to the service.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  /** `METHOD /path?query`, in arrival order. */
  requests: string[];
  /** Each request's body exactly as the client sent it ('' for none), in the same order. */
  bodies: string[];
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const t = new URL(target);
  const requests: string[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const at = bodies.push('') - 1;
    req.on('data', (c: Buffer) => {
      bodies[at] += c.toString('utf8');
    });
    const out = request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
