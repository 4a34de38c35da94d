/**
 * The user's CLOB API credentials at rest: encrypted by the OS keyring through Electron's
 * safeStorage (main/index.ts supplies the cipher), in userData/credentials.bin, mode 0600.
 * The renderer sets and clears them through the contract's `credentials.*` operations; main
 * stores what the core accepted and hands it to the core at every start. Nothing here
 * returns them to the renderer. No Electron import: tested under plain Node.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CredentialStorage, CredentialsInput } from '../src/contract/bridge.ts';

export interface Cipher {
  available(): boolean;
  /** True when the OS offers no keyring and the cipher falls back to a fixed key. */
  weak(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

export class CredentialError extends Error {}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const FIELDS = ['apiKey', 'secret', 'passphrase', 'address'] as const;

/** Validates what the credentials dialog sent; the message names the field. */
export function parseCredentials(input: unknown): CredentialsInput {
  if (!input || typeof input !== 'object') throw new CredentialError('credentials must be an object');
  const v = input as Record<string, unknown>;
  const out = {} as CredentialsInput;
  for (const f of FIELDS) {
    const s = v[f];
    if (typeof s !== 'string' || s.trim() === '') throw new CredentialError(`${f} is required`);
    if (s.length > 512) throw new CredentialError(`${f} is too long`);
    out[f] = s.trim();
  }
  if (!ADDRESS.test(out.address)) throw new CredentialError('address must be a 0x wallet address (40 hex digits)');
  return out;
}

export class CredentialStore {
  private cached: CredentialsInput | undefined;
  private loaded = false;

  constructor(
    private readonly file: string,
    private readonly cipher: Cipher,
  ) {}

  /** The decrypted credentials, for the service core only. */
  load(): CredentialsInput | undefined {
    if (this.loaded) return this.cached;
    this.loaded = true;
    try {
      if (!this.cipher.available()) return undefined;
      this.cached = parseCredentials(JSON.parse(this.cipher.decrypt(readFileSync(this.file))));
    } catch {
      // Missing, or written under another OS account or keyring: as good as not set.
      this.cached = undefined;
    }
    return this.cached;
  }

  storage(): CredentialStorage {
    const available = this.cipher.available();
    return { available, weak: available && this.cipher.weak() };
  }

  set(input: unknown): void {
    const c = parseCredentials(input);
    if (!this.cipher.available()) throw new CredentialError('this system offers no way to encrypt the credentials');
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, this.cipher.encrypt(JSON.stringify(c)), { mode: 0o600 });
    renameSync(tmp, this.file);
    this.cached = c;
    this.loaded = true;
  }

  clear(): void {
    rmSync(this.file, { force: true });
    this.cached = undefined;
    this.loaded = true;
  }
}
