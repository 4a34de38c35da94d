/**
 * CLOB L2 (API-key) authentication, as Polymarket's and Kuest's clients do it
 * (docs/upstream/clob-data-limits.md §1): five headers, in the `POLY_*` or the `KUEST_*` family,
 * and an HMAC-SHA256 over `timestamp + METHOD + path + body` keyed by the base64url-decoded
 * secret, sent as URL-safe base64 with its padding. The path never includes the query string.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Credentials } from './credentials.ts';

export const HEADER_FAMILIES = ['POLY', 'KUEST'] as const;
export type HeaderFamily = (typeof HEADER_FAMILIES)[number];

/** Every auth failure gets this one body (what production answers), so a caller learns nothing more. */
export const UNAUTHORIZED_BODY = { error: 'Unauthorized/Invalid api key' } as const;

/** Default tolerated clock difference, seconds. Official clients reuse one signature for every page. */
export const DEFAULT_WINDOW_S = 300;

/** URL-safe base64 HMAC-SHA256 of `message`, keyed by the base64url (or base64) secret. */
export function hmacSignature(secret: string, message: string): string {
  // Node's base64 decoder takes both alphabets and skips characters outside them, as
  // clob-client's decoder does.
  const key = Buffer.from(secret, 'base64');
  return createHmac('sha256', key).update(message, 'utf8').digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The message an L2 signature covers; `path` loses any query string. The method is taken as sent (upper-case by HTTP convention). */
export function l2Message(timestamp: string | number, method: string, path: string, body = ''): string {
  const q = path.indexOf('?');
  return `${timestamp}${method}${q < 0 ? path : path.slice(0, q)}${body}`;
}

/** The five headers for one request, in the given family (upper-case names, as clients send them). */
export function l2Headers(
  creds: Credentials,
  req: { method: string; path: string; body?: string },
  opts: { nowMs?: number; family?: HeaderFamily } = {},
): Record<string, string> {
  const ts = String(Math.floor((opts.nowMs ?? Date.now()) / 1000));
  const p = opts.family ?? 'POLY';
  return {
    [`${p}_ADDRESS`]: creds.address,
    [`${p}_SIGNATURE`]: hmacSignature(creds.secret, l2Message(ts, req.method, req.path, req.body)),
    [`${p}_TIMESTAMP`]: ts,
    [`${p}_API_KEY`]: creds.apiKey,
    [`${p}_PASSPHRASE`]: creds.passphrase,
  };
}

export interface L2Request {
  method: string;
  /** The request target; a query string is cut off before verifying. */
  path: string;
  /** Header names in any case (Node gives them lower-cased). */
  headers: Record<string, string | string[] | undefined>;
  body?: string;
}

export interface VerifyOptions {
  nowMs?: number;
  /** Largest accepted |now − timestamp|, seconds (default 300). */
  windowS?: number;
}

/** Constant-time string equality; unequal lengths still cost one comparison. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Signatures compare without padding and across the two base64 alphabets (clients differ). */
const canonicalSig = (s: string): string => s.trim().replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function header(headers: L2Request['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()] ?? headers[name];
  return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
}

/**
 * True when the request carries a valid L2 signature by exactly `creds`. No replay cache:
 * official clients sign once and reuse the headers for every page.
 */
export function verifyL2(creds: Credentials | undefined, req: L2Request, opts: VerifyOptions = {}): boolean {
  if (!creds) return false;
  const nowS = Math.floor((opts.nowMs ?? Date.now()) / 1000);
  const windowS = opts.windowS ?? DEFAULT_WINDOW_S;
  for (const family of HEADER_FAMILIES) {
    const get = (n: string) => header(req.headers, `${family}_${n}`);
    const [address, signature, timestamp, apiKey, passphrase] = ['ADDRESS', 'SIGNATURE', 'TIMESTAMP', 'API_KEY', 'PASSPHRASE'].map(get);
    if (address === undefined || signature === undefined || timestamp === undefined || apiKey === undefined || passphrase === undefined)
      continue;
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > windowS) continue;
    // Every check runs so the answer takes the same time whichever part was wrong.
    const expected = hmacSignature(creds.secret, l2Message(timestamp, req.method, req.path, req.body ?? ''));
    let ok = sameSecret(canonicalSig(signature), canonicalSig(expected));
    ok = sameSecret(apiKey, creds.apiKey) && ok;
    ok = sameSecret(passphrase, creds.passphrase) && ok;
    ok = address.toLowerCase() === creds.address.toLowerCase() && ok;
    if (ok) return true;
  }
  return false;
}
