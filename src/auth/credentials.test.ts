import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { CredentialHolder, CredentialsError, credentialsFromEnv, readCredentialsFile, type Credentials } from './credentials.ts';

const CREDS: Credentials = {
  apiKey: 'key-5d1f2c9e-0000-4000-8000-000000000001',
  secret: 'c2VjcmV0LXZhbHVlLXRoYXQtbXVzdC1uZXZlci1sZWFr',
  passphrase: 'passphrase-that-must-never-leak',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
};
const SECRET_VALUES = [CREDS.apiKey, CREDS.secret, CREDS.passphrase];

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function file(content: string, mode: number): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const f = path.join(t.dir, 'credentials.json');
  writeFileSync(f, content);
  chmodSync(f, mode);
  return f;
}

function errorOf(fn: () => unknown): CredentialsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CredentialsError) return e;
    throw e;
  }
  throw new Error('expected a CredentialsError');
}

const noSecrets = (s: string) => {
  for (const v of SECRET_VALUES) expect(s).not.toContain(v);
};

describe.skipIf(process.platform === 'win32')('credentials file', () => {
  it('reads a 0600 file', () => {
    expect(readCredentialsFile(file(JSON.stringify(CREDS), 0o600))).toEqual(CREDS);
  });

  it('refuses a file others may read, with a one-line reason and no secret', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const e = errorOf(() => readCredentialsFile(file(JSON.stringify(CREDS), mode)));
      expect(e.message).toMatch(new RegExp(`readable by other users \\(mode 0${mode.toString(8)}\\); run chmod 600`));
      expect(e.message).not.toContain('\n');
      noSecrets(e.message);
    }
  });

  it('says what is wrong with the content, never quoting it', () => {
    const broken = errorOf(() => readCredentialsFile(file(`{"secret": "${CREDS.secret}", oops}`, 0o600)));
    expect(broken.message).toMatch(/is not valid JSON$/);
    noSecrets(broken.message);
    const missing = errorOf(() => readCredentialsFile(file(JSON.stringify({ ...CREDS, passphrase: undefined }), 0o600)));
    expect(missing.message).toMatch(/passphrase is missing/);
    noSecrets(missing.message);
    const badAddress = errorOf(() => readCredentialsFile(file(JSON.stringify({ ...CREDS, address: 'alice' }), 0o600)));
    expect(badAddress.message).toMatch(/address must be a 0x address/);
    expect(errorOf(() => readCredentialsFile('/nonexistent/credentials.json')).message).toMatch(/cannot read .*ENOENT/);
  });
});

describe('credentials from the environment', () => {
  const env = {
    MARKETDESK_API_KEY: CREDS.apiKey,
    MARKETDESK_API_SECRET: CREDS.secret,
    MARKETDESK_API_PASSPHRASE: CREDS.passphrase,
    MARKETDESK_ADDRESS: CREDS.address,
  };

  it('takes all four variables, or none', () => {
    expect(credentialsFromEnv(env)).toEqual(CREDS);
    expect(credentialsFromEnv({})).toBeUndefined();
  });

  it('names the variables missing from a partial set', () => {
    const { MARKETDESK_API_PASSPHRASE: _p, ...partial } = env;
    const e = errorOf(() => credentialsFromEnv(partial));
    expect(e.message).toBe('incomplete credentials in the environment: MARKETDESK_API_PASSPHRASE not set');
  });
});

describe('CredentialHolder', () => {
  it('reports status without secrets and prints as a placeholder', () => {
    const h = new CredentialHolder(CREDS);
    expect(h.status()).toEqual({ configured: true, address: CREDS.address });
    noSecrets(inspect(h, { depth: 5 }));
    noSecrets(JSON.stringify({ h }));
    h.clear();
    expect(h.status()).toEqual({ configured: false });
  });

  it('tells listeners about changes', () => {
    const h = new CredentialHolder();
    const seen: (string | undefined)[] = [];
    h.onChange((c) => seen.push(c?.address));
    h.set(CREDS);
    h.clear();
    h.clear();
    expect(seen).toEqual([CREDS.address, undefined]);
  });
});
