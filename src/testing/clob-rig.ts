/**
 * The stage the official CLOB clients are driven on (src/clients/): a fake upstream with a
 * synthetic catalog and an account of generated open orders, the service syncing from it, and a
 * counting proxy in front of the service's clob face, so a test can count a client's requests and
 * read their bodies as sent. The account is a fresh ethers 5 wallet with random L2 credentials;
 * both the fake and the service are given them.
 *
 * `upstream()` reads straight from the fake (signed when asked): what a forwarded answer must equal.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { expect } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeTradingOptions, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import type { Logger } from '../logger.ts';
import { startCountingProxy, type CountingProxy } from './counting-proxy.ts';

const quiet: Logger = { info: () => {}, warn: () => {} } as Logger;

export interface ClobRigOptions {
  /** Generated open orders of the account (default 120). */
  orders?: number;
  /** Synthetic catalog size and seed (default 40 markets, seed 3). */
  markets?: number;
  seed?: number;
  /** Options of the fake's CLOB (its market listings' page size, say). */
  trading?: FakeTradingOptions;
}

export interface ClobRig {
  up: FakeUpstream;
  service: Service;
  /** In front of the service's clob face: point the clients' host here. */
  proxy: CountingProxy;
  wallet: Wallet;
  creds: Credentials;
  /** The credentials as the clients take them. */
  apiCreds: { key: string; secret: string; passphrase: string };
  /** A read straight from the fake upstream (200 expected): what the service's forwarded answer must equal. */
  upstream(path: string, init?: { method?: string; body?: unknown; signed?: boolean }): Promise<unknown>;
  /** The fake's log entries for `METHOD path` since entry `from`. */
  upstreamHits(from: number, method: string, path: string): number;
  close(): Promise<void>;
}

export async function startClobRig(opts: ClobRigOptions = {}): Promise<ClobRig> {
  const wallet = Wallet.createRandom();
  const creds: Credentials = {
    apiKey: randomUUID(),
    secret: randomBytes(32).toString('base64url'),
    passphrase: randomBytes(32).toString('hex'),
    address: wallet.address,
  };
  const up = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: opts.markets ?? 40, seed: opts.seed ?? 3 }),
    clob: { credentials: creds, generate: { count: opts.orders ?? 120 } },
    ...(opts.trading ? { trading: opts.trading } : {}),
  });
  let service: Service | undefined;
  let proxy: CountingProxy | undefined;
  try {
    service = await startService({
      urls: { gamma: up.url, clob: up.url, data: up.url },
      basePort: 0,
      clobPort: 0,
      credentials: creds,
      log: quiet,
      client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    });
    proxy = await startCountingProxy(service.clobUrl!);
  } catch (e) {
    await service?.close();
    await up.close();
    throw e;
  }
  const s = service;
  const p = proxy;
  return {
    up,
    service: s,
    proxy: p,
    wallet,
    creds,
    apiCreds: { key: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase },
    async upstream(path, init = {}) {
      const method = init.method ?? 'GET';
      const body = init.body === undefined ? undefined : JSON.stringify(init.body);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (init.signed)
        Object.assign(headers, l2Headers(creds, { method, path: path.split('?')[0]!, ...(body !== undefined ? { body } : {}) }));
      const res = await fetch(`${up.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      expect(res.status, path).toBe(200);
      return res.json();
    },
    upstreamHits: (from, method, path) => up.requests.entries.slice(from).filter((e) => e.method === method && e.path === path).length,
    async close() {
      await p.close();
      await s.close();
      await up.close();
    },
  };
}
