/**
 * The page's WebCrypto signer (l2-sign.ts) against the service's node:crypto one (src/auth/l2.ts):
 * the official clients' test vectors, then random secrets, messages, paths and bodies, and the
 * verifier accepting the page's headers. Runs in Node 20+, where globalThis.crypto.subtle,
 * TextEncoder and btoa are the browser's APIs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as node from '../../src/auth/l2.ts';
import { decodeBase64Lenient, hmacSignature, l2Headers, l2Message } from './l2-sign.ts';
import { TEST_CREDS, TEST_NOW, ZERO_SECRET } from '../../src/testing/l2-vectors.ts';

const CREDS = TEST_CREDS;
const NOW = TEST_NOW;

/** Any UTF-16 string, lone surrogates and characters above U+00FF included. */
const anyText = (maxLength = 80) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));
/** Mostly base64 digits of both alphabets, with padding, whitespace and stray characters among them. */
const base64ish = fc
  .array(
    fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_', '=', ' ', '\n', '.', '%', 'é', 'Ł', '\u013d'),
    {
      maxLength: 120,
    },
  )
  .map((cs) => cs.join(''));
/** What real secrets look like: random bytes in base64url or base64, padded or not. */
const realSecret = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 96 }), fc.constantFrom('base64url', 'base64', 'base64-unpadded'))
  .map(([bytes, form]) => {
    const b = Buffer.from(bytes);
    if (form === 'base64url') return b.toString('base64url') + '='.repeat((4 - (b.toString('base64url').length % 4)) % 4);
    if (form === 'base64') return b.toString('base64');
    return b.toString('base64').replace(/=+$/, '');
  });
const anySecret = fc.oneof(realSecret, base64ish, anyText(40));

describe('browser L2 signer', () => {
  it("matches the official clients' test vectors", async () => {
    expect(await hmacSignature(ZERO_SECRET, '1000000test-sign/orders{"hash": "0x123"}')).toBe(
      'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=',
    );
    expect(await hmacSignature(ZERO_SECRET, '1GET/')).toBe('eHaylCwqRSOa2LFD77Nt_SaTpbsxzN8eTEI3LryhEj4=');
    expect(await hmacSignature(ZERO_SECRET, l2Message(1000000, 'test-sign', '/orders', '{"hash":"0x123"}'))).toBe(
      '4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM=',
    );
  });

  it('builds the message as l2.ts does, the path without its query string', () => {
    expect(l2Message(5, 'GET', '/data/orders?next_cursor=MA%3D%3D&market=0x1')).toBe('5GET/data/orders');
    fc.assert(
      fc.property(
        fc.oneof(fc.nat(), anyText(12)),
        anyText(8),
        anyText(),
        fc.option(anyText(), { nil: undefined }),
        (ts, method, path, body) => {
          expect(l2Message(ts, method, path, body)).toBe(node.l2Message(ts, method, path, body));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes the secret exactly as Node\'s Buffer.from(secret, "base64") does', () => {
    for (const s of ['', '=', 'A', 'AB', 'ABC', 'ABCD', 'AB==CD', 'A=B', '-_+/', 'QUJD RA\n==', '%%%', 'ŁŁŁŁ', '\u013dQUJD']) {
      expect([...decodeBase64Lenient(s)], JSON.stringify(s)).toEqual([...Buffer.from(s, 'base64')]);
    }
    fc.assert(
      fc.property(anySecret, (s) => {
        expect([...decodeBase64Lenient(s)]).toEqual([...Buffer.from(s, 'base64')]);
      }),
      { numRuns: 2000 },
    );
  });

  it('signs like l2.ts for random secrets and messages', async () => {
    await fc.assert(
      fc.asyncProperty(anySecret, anyText(200), async (secret, message) => {
        expect(await hmacSignature(secret, message)).toBe(node.hmacSignature(secret, message));
      }),
      { numRuns: 500 },
    );
  });

  it('signs like l2.ts when the secret decodes to no bytes (WebCrypto refuses an empty key)', async () => {
    for (const secret of ['', '=', 'A', '!!!', '====', ' \n']) {
      expect(await hmacSignature(secret, '1GET/data/orders'), JSON.stringify(secret)).toBe(node.hmacSignature(secret, '1GET/data/orders'));
    }
  });

  it('signs like l2.ts for secrets longer than the HMAC block (hashed first)', async () => {
    const long = Buffer.alloc(200, 7).toString('base64url');
    expect(await hmacSignature(long, 'x')).toBe(node.hmacSignature(long, 'x'));
  });

  it('gives the same five headers as l2.ts, which its verifier accepts with the query string on', async () => {
    const h = await l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { nowMs: NOW });
    expect(h).toEqual(node.l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { nowMs: NOW, family: 'KUEST' }));
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    expect(
      node.verifyL2(CREDS, { method: 'GET', path: '/data/orders?next_cursor=MTAw&market=0x1', headers: lower }, { nowMs: NOW + 5000 }),
    ).toBe(true);
    // Another secret: refused.
    const other = await l2Headers({ ...CREDS, secret: ZERO_SECRET }, { method: 'GET', path: '/data/orders' }, { nowMs: NOW });
    const otherLower = Object.fromEntries(Object.entries(other).map(([k, v]) => [k.toLowerCase(), v]));
    expect(node.verifyL2(CREDS, { method: 'GET', path: '/data/orders', headers: otherLower }, { nowMs: NOW })).toBe(false);

    await fc.assert(
      fc.asyncProperty(
        realSecret,
        fc.constantFrom('GET', 'POST', 'DELETE'),
        fc.webPath(),
        fc.option(anyText(), { nil: undefined }),
        fc.maxSafeNat(),
        async (secret, method, path, body, nowMs) => {
          const creds = { ...CREDS, secret };
          const req = { method, path, ...(body !== undefined ? { body } : {}) };
          expect(await l2Headers(creds, req, { nowMs })).toEqual(node.l2Headers(creds, req, { nowMs, family: 'KUEST' }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
