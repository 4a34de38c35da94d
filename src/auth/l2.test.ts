/**
 * L2 signing and verification: the official clients' test vectors, a signature computed the way
 * clob-client computes it (written out here, independently of l2.ts), and every way a request
 * can fail. The same checks over real HTTP are in src/http/orders-routes.test.ts.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Credentials } from './credentials.ts';
import { hmacSignature, l2Headers, l2Message, verifyL2, type L2Request } from './l2.ts';
import { TEST_CREDS, TEST_NOW, ZERO_SECRET } from '../testing/l2-vectors.ts';

const CREDS = TEST_CREDS;
const NOW = TEST_NOW;
const NOW_S = Math.floor(NOW / 1000);

/** clob-client's buildPolyHmacSignature, re-typed from its source (src/signing/hmac.ts). */
function clientSignature(secret: string, timestamp: number, method: string, requestPath: string, body?: string): string {
  let message = timestamp + method + requestPath;
  if (body !== undefined) message += body;
  const sanitized = secret
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/=]/g, '');
  const key = Buffer.from(sanitized, 'base64');
  const sig = createHmac('sha256', key).update(message).digest('base64');
  return sig.replace(/\+/g, '-').replace(/\//g, '_');
}

function clientHeaders(c: Credentials, ts = NOW_S, path = '/data/orders'): Record<string, string> {
  return {
    POLY_ADDRESS: c.address,
    POLY_SIGNATURE: clientSignature(c.secret, ts, 'GET', path),
    POLY_TIMESTAMP: String(ts),
    POLY_API_KEY: c.apiKey,
    POLY_PASSPHRASE: c.passphrase,
  };
}

/** Node lower-cases incoming header names. */
const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

const req = (headers: Record<string, string>, path = '/data/orders'): L2Request => ({ method: 'GET', path, headers: lower(headers) });
const verify = (r: L2Request, c: Credentials | undefined = CREDS, nowMs = NOW) => verifyL2(c, r, { nowMs });

describe('L2 signature', () => {
  it("matches the official clients' test vectors", () => {
    expect(hmacSignature(ZERO_SECRET, '1000000test-sign/orders{"hash": "0x123"}')).toBe('ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=');
    expect(hmacSignature(ZERO_SECRET, '1GET/')).toBe('eHaylCwqRSOa2LFD77Nt_SaTpbsxzN8eTEI3LryhEj4=');
    expect(hmacSignature(ZERO_SECRET, l2Message(1000000, 'test-sign', '/orders', '{"hash":"0x123"}'))).toBe(
      '4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM=',
    );
  });

  it('signs the path without its query string', () => {
    expect(l2Message(5, 'GET', '/data/orders?next_cursor=MA%3D%3D&market=0x1')).toBe('5GET/data/orders');
  });

  it('agrees with an independently written client', () => {
    const h = l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { nowMs: NOW });
    expect(h['POLY_SIGNATURE']).toBe(clientSignature(CREDS.secret, NOW_S, 'GET', '/data/orders'));
    expect(h).toEqual(clientHeaders(CREDS));
  });
});

describe('L2 verification', () => {
  it('accepts a request signed by a real client, with its query string, and the same headers again', () => {
    const r = req(clientHeaders(CREDS), '/data/orders?next_cursor=MTAw&geo_block_token=x');
    expect(verify(r)).toBe(true);
    // Official clients sign once and reuse the headers for every page: no replay refusal.
    expect(verify(r)).toBe(true);
    expect(verify(req(clientHeaders(CREDS), '/data/orders?next_cursor=MjAw'))).toBe(true);
  });

  it('accepts the address in any letter case', () => {
    const h = clientHeaders(CREDS);
    expect(verify(req({ ...h, POLY_ADDRESS: CREDS.address.toLowerCase() }))).toBe(true);
    expect(verify(req({ ...h, POLY_ADDRESS: CREDS.address.toUpperCase().replace('0X', '0x') }))).toBe(true);
  });

  it('accepts the KUEST_* header family', () => {
    const kuest = Object.fromEntries(Object.entries(clientHeaders(CREDS)).map(([k, v]) => [k.replace('POLY_', 'KUEST_'), v]));
    expect(verify(req(kuest))).toBe(true);
    const h = l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { nowMs: NOW, family: 'KUEST' });
    expect(Object.keys(h).every((k) => k.startsWith('KUEST_'))).toBe(true);
    expect(verify(req(h))).toBe(true);
  });

  it('accepts the signature with its padding dropped or in the standard base64 alphabet', () => {
    const h = clientHeaders(CREDS);
    const sig = h['POLY_SIGNATURE']!;
    expect(verify(req({ ...h, POLY_SIGNATURE: sig.replace(/=+$/, '') }))).toBe(true);
    expect(verify(req({ ...h, POLY_SIGNATURE: sig.replace(/-/g, '+').replace(/_/g, '/') }))).toBe(true);
  });

  it('refuses a wrong secret, passphrase, key or address', () => {
    expect(verify(req(clientHeaders({ ...CREDS, secret: ZERO_SECRET })))).toBe(false);
    expect(verify(req({ ...clientHeaders(CREDS), POLY_PASSPHRASE: 'b'.repeat(64) }))).toBe(false);
    expect(verify(req({ ...clientHeaders(CREDS), POLY_API_KEY: '11111111-0000-0000-0000-000000000000' }))).toBe(false);
    expect(verify(req({ ...clientHeaders(CREDS), POLY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }))).toBe(false);
    // A prefix of the right key is still the wrong key.
    expect(verify(req({ ...clientHeaders(CREDS), POLY_API_KEY: CREDS.apiKey.slice(0, -1) }))).toBe(false);
  });

  it('refuses a signature over another method or path', () => {
    const h = clientHeaders(CREDS);
    expect(verify({ method: 'POST', path: '/data/orders', headers: lower(h) })).toBe(false);
    expect(verify(req(h, '/data/trades'))).toBe(false);
  });

  it('refuses timestamps outside the window, either way, and malformed ones', () => {
    expect(verify(req(clientHeaders(CREDS, NOW_S - 300)))).toBe(true);
    expect(verify(req(clientHeaders(CREDS, NOW_S - 301)))).toBe(false);
    expect(verify(req(clientHeaders(CREDS, NOW_S + 301)))).toBe(false);
    const h = clientHeaders(CREDS);
    expect(verify(req({ ...h, POLY_TIMESTAMP: `${NOW_S}.0` }))).toBe(false);
    // The window is configurable.
    expect(verifyL2(CREDS, req(clientHeaders(CREDS, NOW_S - 100)), { nowMs: NOW, windowS: 60 })).toBe(false);
  });

  it('refuses a request missing any one header, or with no credentials configured', () => {
    const h = clientHeaders(CREDS);
    for (const name of Object.keys(h)) {
      const { [name]: _gone, ...rest } = h;
      expect(verify(req(rest)), name).toBe(false);
    }
    expect(verify(req({}))).toBe(false);
    expect(verifyL2(undefined, req(h), { nowMs: NOW })).toBe(false);
  });

  it('does not mix header families', () => {
    const h = clientHeaders(CREDS);
    const mixed = { ...h, KUEST_SIGNATURE: h['POLY_SIGNATURE']! };
    delete (mixed as Record<string, string>)['POLY_SIGNATURE'];
    expect(verify(req(mixed))).toBe(false);
  });
});
