/**
 * The user's CLOB API credentials in the service core: where headless runs get them (a 0600
 * JSON file or MARKETDESK_* variables) and the one in-memory holder the orders code reads.
 * No message here ever contains a credential value: errors name the field only.
 */
import { readFileSync, statSync } from 'node:fs';
import { inspect } from 'node:util';
import type { CredentialsStatus } from '../contract/orders-ops.ts';

export type { CredentialsStatus };

export interface Credentials {
  apiKey: string;
  secret: string;
  passphrase: string;
  /** The account's 0x address (compared case-insensitively). */
  address: string;
}

export class CredentialsError extends Error {
  override name = 'CredentialsError';
}

const FIELDS = ['apiKey', 'secret', 'passphrase', 'address'] as const;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Validates a credentials object; the error names the field, never its value. */
export function parseCredentials(input: unknown, where = 'credentials'): Credentials {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new CredentialsError(`${where} must be a JSON object with apiKey, secret, passphrase and address`);
  const v = input as Record<string, unknown>;
  const out = {} as Credentials;
  for (const f of FIELDS) {
    const s = v[f];
    if (typeof s !== 'string' || s.trim() === '') throw new CredentialsError(`${where}: ${f} is missing or not a string`);
    if (s.length > 512) throw new CredentialsError(`${where}: ${f} is too long`);
    out[f] = s.trim();
  }
  if (!ADDRESS.test(out.address)) throw new CredentialsError(`${where}: address must be a 0x address (40 hex digits)`);
  return out;
}

/**
 * Reads `--credentials FILE`. Refused when group or others may read it (mode & 0o077), as ssh
 * refuses a private key; Windows has no such mode bits, so the check is skipped there.
 */
export function readCredentialsFile(file: string, platform: NodeJS.Platform = process.platform): Credentials {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (e) {
    throw new CredentialsError(`cannot read the credentials file ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new CredentialsError(
      `credentials file ${file} is readable by other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); run chmod 600 on it`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // JSON.parse's message quotes the text around the error, which may be a secret.
    throw new CredentialsError(`credentials file ${file} is not valid JSON`);
  }
  return parseCredentials(parsed, `credentials file ${file}`);
}

export const ENV_NAMES = {
  apiKey: 'MARKETDESK_API_KEY',
  secret: 'MARKETDESK_API_SECRET',
  passphrase: 'MARKETDESK_API_PASSPHRASE',
  address: 'MARKETDESK_ADDRESS',
} as const;

/** The four MARKETDESK_* variables: all or none (a partial set is a mistake worth saying). */
export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): Credentials | undefined {
  const given = FIELDS.filter((f) => env[ENV_NAMES[f]] !== undefined && env[ENV_NAMES[f]] !== '');
  if (given.length === 0) return undefined;
  if (given.length < FIELDS.length) {
    const missing = FIELDS.filter((f) => !given.includes(f)).map((f) => ENV_NAMES[f]);
    throw new CredentialsError(`incomplete credentials in the environment: ${missing.join(', ')} not set`);
  }
  return parseCredentials(Object.fromEntries(FIELDS.map((f) => [f, env[ENV_NAMES[f]]])), 'MARKETDESK_* credentials');
}

/**
 * The credentials the core uses, replaceable at run time (the desktop settings dialog). It
 * prints as `[CredentialHolder]`, so a stray log of it leaks nothing.
 */
export class CredentialHolder {
  private creds: Credentials | undefined;
  private readonly listeners = new Set<(c: Credentials | undefined) => void>();

  constructor(initial?: Credentials) {
    this.creds = initial ? parseCredentials(initial) : undefined;
  }

  get(): Credentials | undefined {
    return this.creds;
  }

  status(): CredentialsStatus {
    return this.creds ? { configured: true, address: this.creds.address } : { configured: false };
  }

  set(c: Credentials): void {
    this.creds = parseCredentials(c);
    this.emit();
  }

  clear(): void {
    if (!this.creds) return;
    this.creds = undefined;
    this.emit();
  }

  onChange(fn: (c: Credentials | undefined) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this.creds);
  }

  toJSON(): string {
    return '[CredentialHolder]';
  }

  [inspect.custom](): string {
    return '[CredentialHolder]';
  }
}
