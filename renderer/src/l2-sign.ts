/**
 * L2 request signing in the page (web mode), with WebCrypto: the same five headers and the same
 * signature that src/auth/l2.ts computes and verifies (that file needs node:crypto and Buffer,
 * so it cannot run here; l2-sign.test.ts checks the two agree).
 *
 *   signature = URL-safe base64 (with padding) of HMAC-SHA256(key, timestamp + METHOD + path + body)
 *
 * where `path` loses its query string and `key` is the secret decoded exactly as Node's
 * `Buffer.from(secret, 'base64')` decodes it (both alphabets; other characters skipped; `=`
 * ends the data), since that is what the service keys its HMAC with.
 */

/** The credentials the user typed in (the shape of the contract's `credentials.set`). */
export interface L2Credentials {
  apiKey: string;
  secret: string;
  passphrase: string;
  address: string;
}

/** Base64 digit values, both alphabets (`+`/`-` are 62, `/`/`_` 63); -1 elsewhere. */
const DIGIT = (() => {
  const t = new Int8Array(256).fill(-1);
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < abc.length; i++) t[abc.charCodeAt(i)] = i;
  t[0x2b] = 62; // +
  t[0x2d] = 62; // -
  t[0x2f] = 63; // /
  t[0x5f] = 63; // _
  return t;
})();

/**
 * Decodes base64 or base64url as Node's Buffer does: each UTF-16 unit is taken as its low byte,
 * characters outside both alphabets are skipped, the first `=` ends the data, and a final group
 * of 2 or 3 digits gives 1 or 2 bytes (a lone digit gives none).
 */
export function decodeBase64Lenient(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let n = 0;
  let acc = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) & 0xff;
    if (c === 0x3d) break; // '='
    const d = DIGIT[c]!;
    if (d < 0) continue;
    acc = (acc << 6) | d;
    digits++;
    if (digits === 4) {
      out[n++] = (acc >> 16) & 0xff;
      out[n++] = (acc >> 8) & 0xff;
      out[n++] = acc & 0xff;
      acc = 0;
      digits = 0;
    }
  }
  if (digits === 2) out[n++] = (acc >> 4) & 0xff;
  else if (digits === 3) {
    out[n++] = (acc >> 10) & 0xff;
    out[n++] = (acc >> 2) & 0xff;
  }
  return out.slice(0, n);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The message an L2 signature covers; `path` loses any query string (as l2.ts's l2Message). */
export function l2Message(timestamp: string | number, method: string, path: string, body = ''): string {
  const q = path.indexOf('?');
  return `${timestamp}${method}${q < 0 ? path : path.slice(0, q)}${body}`;
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  // Browsers offer WebCrypto only to secure contexts: https, or http on 127.0.0.1 / localhost.
  if (!s)
    throw new Error(
      'This page cannot sign requests: open it at http://127.0.0.1 or http://localhost (or over https), ' +
        'where the browser offers WebCrypto.',
    );
  return s;
}

/** URL-safe base64 (padding kept) HMAC-SHA256 of `message`, keyed by the decoded secret. */
export async function hmacSignature(secret: string, message: string): Promise<string> {
  let key = decodeBase64Lenient(secret);
  // WebCrypto refuses an empty HMAC key; Node takes it. HMAC pads a short key with zero bytes to
  // the block size, so the empty key and a single zero byte are the same key.
  if (key.length === 0) key = new Uint8Array(1);
  const s = subtle();
  const k = await s.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await s.sign('HMAC', k, new TextEncoder().encode(message)));
  return toBase64(mac).replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * The five `KUEST_*` headers for one request (upper-case names, as l2.ts's l2Headers gives them
 * for that family). KUEST, not POLY: the service answers `POLY_*` callers in Polymarket's own
 * dialect (snake_case orders, `LTE=` cursor), and the page reads the spec's.
 */
export async function l2Headers(
  creds: L2Credentials,
  req: { method: string; path: string; body?: string },
  opts: { nowMs?: number } = {},
): Promise<Record<string, string>> {
  const ts = String(Math.floor((opts.nowMs ?? Date.now()) / 1000));
  return {
    KUEST_ADDRESS: creds.address,
    KUEST_SIGNATURE: await hmacSignature(creds.secret, l2Message(ts, req.method, req.path, req.body)),
    KUEST_TIMESTAMP: ts,
    KUEST_API_KEY: creds.apiKey,
    KUEST_PASSPHRASE: creds.passphrase,
  };
}
