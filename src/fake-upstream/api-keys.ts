/**
 * The fake CLOB's API keys: L1 (a wallet's EIP-712 ClobAuth signature) creates and derives them,
 * L2 (an active key's HMAC) signs everything else, and `DELETE /auth/api-key` revokes one.
 *
 * The L1 check is the CLOB's (docs/upstream/clob-data-limits.md §1.2): the four `POLY_*` headers;
 * the typed data `{name: "ClobAuthDomain", version: "1", chainId}`, primary type `ClobAuth{address,
 * timestamp, nonce, message}` with Polymarket's fixed message, must recover to `POLY_ADDRESS`,
 * and the timestamp must be within the window. The signer is recovered with ethers'
 * `verifyTypedData`, as order-signing.ts does for orders.
 *
 * Keys are deterministic: an address and nonce give the same key every time (a hash of both), so
 * tests can predict them; the credentials the fake was started with are the key of their
 * address at nonce 0. As the CLOB does, creating a key that exists answers 400 (clients then
 * derive it: @polymarket/client's createOrDeriveApiKey catches exactly that status), and deriving
 * one that does not exist answers 400. The error texts are the fake's: no captured answer was found.
 */
import { createHash } from 'node:crypto';
import { utils } from 'ethers';
import type { Credentials } from '../auth/credentials.ts';

export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
export const KEY_EXISTS = 'Could not create api key';
export const KEY_MISSING = 'Could not derive api key!';
export const INVALID_L1 = 'Invalid L1 Request headers';

const CLOB_AUTH_TYPES = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
};

type Headers = Record<string, string | string[] | undefined>;

/** A key's credentials as the CLOB answers them (`POST /auth/api-key`, `GET /auth/derive-api-key`). */
export interface ApiKeyAnswer {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface KeyRecord extends Credentials {
  nonce: number;
  revoked: boolean;
}

export interface FakeApiKeysOptions {
  /** The account the fake was started with: its key at nonce 0. */
  credentials?: Credentials;
  /** Accepted chain (default 137, Polygon). */
  chainId?: number;
  /** Accepted timestamp skew, seconds (default 300). */
  windowS?: number;
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const slot = (address: string, nonce: number) => `${address.toLowerCase()}:${nonce}`;

/** The credentials of (address, nonce): a UUID key, a base64url secret and a hex passphrase, all from one hash. */
export function deterministicCredentials(address: string, nonce: number): Credentials {
  const h = (label: string) => createHash('sha256').update(`${label}:${address.toLowerCase()}:${nonce}`).digest();
  const k = h('key').toString('hex');
  return {
    apiKey: `${k.slice(0, 8)}-${k.slice(8, 12)}-4${k.slice(13, 16)}-8${k.slice(17, 20)}-${k.slice(20, 32)}`,
    secret: h('secret').toString('base64url'),
    passphrase: h('passphrase').toString('hex'),
    address: utils.getAddress(address),
  };
}

export class FakeApiKeys {
  private readonly bySlot = new Map<string, KeyRecord>();
  private readonly byKey = new Map<string, KeyRecord>();

  constructor(private readonly opts: FakeApiKeysOptions = {}) {
    if (opts.credentials) this.add({ ...opts.credentials, nonce: 0, revoked: false });
  }

  private add(r: KeyRecord): KeyRecord {
    this.bySlot.set(slot(r.address, r.nonce), r);
    this.byKey.set(r.apiKey, r);
    return r;
  }

  /** The active key's credentials, for checking an L2 signature; undefined when unknown or revoked. */
  active(apiKey: string | undefined): Credentials | undefined {
    const r = apiKey === undefined ? undefined : this.byKey.get(apiKey);
    return r && !r.revoked ? r : undefined;
  }

  /** Every key the fake knows, revoked ones too (tests). */
  all(): KeyRecord[] {
    return [...this.byKey.values()];
  }

  /** The signing address and nonce of a valid L1 request, or undefined (bad or missing headers, stale timestamp). */
  verifyL1(headers: Headers, nowMs = Date.now()): { address: string; nonce: number } | undefined {
    const address = one(headers['poly_address']);
    const signature = one(headers['poly_signature']);
    const timestamp = one(headers['poly_timestamp']);
    const nonceText = one(headers['poly_nonce']) ?? '0';
    if (!address || !signature || !timestamp || !/^\d{1,15}$/.test(timestamp) || !/^\d{1,15}$/.test(nonceText)) return undefined;
    if (!utils.isAddress(address)) return undefined;
    if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > (this.opts.windowS ?? 300)) return undefined;
    const nonce = Number(nonceText);
    const domain = { name: 'ClobAuthDomain', version: '1', chainId: this.opts.chainId ?? 137 };
    const value = { address, timestamp, nonce, message: CLOB_AUTH_MESSAGE };
    let recovered: string;
    try {
      recovered = utils.verifyTypedData(domain, CLOB_AUTH_TYPES, value, signature);
    } catch {
      return undefined;
    }
    return recovered.toLowerCase() === address.toLowerCase() ? { address, nonce } : undefined;
  }

  /** `POST /auth/api-key`: a new key for (address, nonce); 400 when one is active there already. */
  create(address: string, nonce: number): { status: number; body: ApiKeyAnswer | { error: string } } {
    const existing = this.bySlot.get(slot(address, nonce));
    if (existing && !existing.revoked) return { status: 400, body: { error: KEY_EXISTS } };
    // A slot whose key was revoked gets a new one: the hash takes the revocations so far.
    const generation = existing ? this.all().filter((r) => r.revoked && slot(r.address, r.nonce) === slot(address, nonce)).length : 0;
    const creds = deterministicCredentials(address, generation === 0 ? nonce : nonce + generation * 2 ** 32);
    return { status: 200, body: answer(this.add({ ...creds, nonce, revoked: false })) };
  }

  /** `GET /auth/derive-api-key`: the active key of (address, nonce); 400 when there is none. */
  derive(address: string, nonce: number): { status: number; body: ApiKeyAnswer | { error: string } } {
    const r = this.bySlot.get(slot(address, nonce));
    return r && !r.revoked ? { status: 200, body: answer(r) } : { status: 400, body: { error: KEY_MISSING } };
  }

  /** `DELETE /auth/api-key`: the key that signed the request stops working. */
  revoke(apiKey: string): boolean {
    const r = this.byKey.get(apiKey);
    if (!r || r.revoked) return false;
    r.revoked = true;
    return true;
  }
}

const answer = (c: Credentials): ApiKeyAnswer => ({ apiKey: c.apiKey, secret: c.secret, passphrase: c.passphrase });
