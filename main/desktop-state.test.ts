/**
 * Desktop state without Electron: settings merge, window state, credentials at rest (with a
 * stand-in cipher; Electron's safeStorage is the real one), and the IPC relay's parameter rules.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../src/testing/fixtures.ts';
import { CredentialError, CredentialStore, type Cipher } from './credentials.ts';
import { toRaw } from './relay.ts';
import { DEFAULT_SETTINGS, loadSettings, loadWindowState, mergeSettings, saveSettings, settingsInputError } from './settings.ts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Reversible and visibly not plain text: enough to check nothing is stored in the clear. */
const cipher: Cipher = {
  available: () => true,
  weak: () => false,
  encrypt: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
  decrypt: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
};
const CREDS = { apiKey: 'key-0001-abcd', secret: 'c2VjcmV0LXNlY3JldA==', passphrase: 'pass', address: `0x${'ab'.repeat(20)}` };

describe('settings', () => {
  it('keeps known valid fields and drops the rest', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { httpEnabled: false, basePort: 8000, clobPort: 70000, extra: 1 })).toEqual({
      httpEnabled: false,
      basePort: 8000,
      clobPort: 7311,
      allowedOrigins: [],
    });
    expect(mergeSettings(DEFAULT_SETTINGS, 'nonsense')).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps allowed origins normalized, and a list with a bad entry not at all', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { allowedOrigins: ['HTTP://Localhost:5173/', 'https://tools.example'] }).allowedOrigins).toEqual(
      ['http://localhost:5173', 'https://tools.example'],
    );
    const base = { ...DEFAULT_SETTINGS, allowedOrigins: ['https://kept.example'] };
    expect(mergeSettings(base, { allowedOrigins: ['https://ok.example', 'https://bad.example/path'] }).allowedOrigins).toEqual([
      'https://kept.example',
    ]);
    expect(settingsInputError({ allowedOrigins: ['https://bad.example/path'] })).toMatch(/not an origin/);
    expect(settingsInputError({ allowedOrigins: 'https://a.example' })).toMatch(/list/);
    expect(settingsInputError({ basePort: 8000 })).toBeUndefined();
  });

  it('round-trips through the file and survives a broken one', () => {
    const file = path.join(tmp.dir, 'settings.json');
    expect(loadSettings(file)).toEqual(DEFAULT_SETTINGS);
    saveSettings(file, { ...DEFAULT_SETTINGS, httpEnabled: false });
    expect(loadSettings(file).httpEnabled).toBe(false);
    writeFileSync(file, '{ broken');
    expect(loadSettings(file)).toEqual(DEFAULT_SETTINGS);
  });

  it('reads window state defensively', () => {
    const file = path.join(tmp.dir, 'window.json');
    writeFileSync(file, JSON.stringify({ width: 10, height: 900, x: 5, y: 'a', maximized: 1 }));
    expect(loadWindowState(file)).toEqual({ width: 1280, height: 900, maximized: false });
  });
});

describe('credentials at rest', () => {
  it('stores encrypted with mode 0600, reads them back for the core, and clears', () => {
    const file = path.join(tmp.dir, 'credentials.bin');
    const store = new CredentialStore(file, cipher);
    expect(store.load()).toBeUndefined();
    expect(store.storage()).toEqual({ available: true, weak: false });
    store.set(CREDS);
    const raw = readFileSync(file);
    expect(raw.toString('utf8')).not.toContain(CREDS.secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A fresh store (next launch) reads them back for the core.
    expect(new CredentialStore(file, cipher).load()).toEqual(CREDS);
    store.clear();
    expect(new CredentialStore(file, cipher).load()).toBeUndefined();
  });

  it('refuses incomplete or malformed credentials', () => {
    const store = new CredentialStore(path.join(tmp.dir, 'c2.bin'), cipher);
    expect(() => store.set({ ...CREDS, secret: '' })).toThrow(CredentialError);
    expect(() => store.set({ ...CREDS, address: '0x12' })).toThrow(/address/);
    expect(() => store.set('x')).toThrow(CredentialError);
  });

  it('treats a file it cannot decrypt as not set', () => {
    const file = path.join(tmp.dir, 'c3.bin');
    writeFileSync(file, 'garbage');
    expect(new CredentialStore(file, cipher).load()).toBeUndefined();
  });
});

describe('IPC parameters', () => {
  it('turns typed params into the query-string form, refusing anything else', () => {
    expect(toRaw({ limit: 5, closed: false, order: 'volumeNum', tag: undefined, ids: ['1', 2] })).toEqual({
      limit: '5',
      closed: 'false',
      order: 'volumeNum',
      ids: ['1', '2'],
    });
    expect(toRaw(undefined)).toEqual({});
    expect(toRaw([1])).toBeNull();
    expect(toRaw({ a: { b: 1 } })).toBeNull();
    expect(toRaw({ a: [{}] })).toBeNull();
  });
});
