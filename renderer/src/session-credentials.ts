/**
 * Web mode's L2 credentials: typed into the credentials dialog, kept in this tab's
 * sessionStorage only (never localStorage: they go when the tab closes), and used only to sign
 * requests to the service (l2-sign.ts). The secret itself is never sent anywhere.
 */
import type { L2Credentials } from './l2-sign.ts';

const KEY = 'marketdesk.l2-credentials';
const FIELDS = ['apiKey', 'secret', 'passphrase', 'address'] as const;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The contract's bound on each field (`credentials.set`), and src/auth/credentials.ts's. */
const MAX_LENGTH = 512;

const LABELS: Record<(typeof FIELDS)[number], string> = {
  apiKey: 'API key',
  secret: 'secret',
  passphrase: 'passphrase',
  address: 'address',
};

/**
 * Checks and trims credentials the way the service's parseCredentials does (it trims the ones
 * it is started with, so the page must sign with trimmed ones too). Throws a message naming
 * the field, never its value.
 */
export function normalizeCredentials(input: Partial<Record<keyof L2Credentials, unknown>>): L2Credentials {
  const out = {} as L2Credentials;
  for (const f of FIELDS) {
    const v = input[f];
    if (typeof v !== 'string' || v.trim() === '') throw new Error(`The ${LABELS[f]} is missing.`);
    if (v.length > MAX_LENGTH) throw new Error(`The ${LABELS[f]} is too long.`);
    out[f] = v.trim();
  }
  if (!ADDRESS.test(out.address)) throw new Error('The address must be a 0x address (40 hex digits).');
  return out;
}

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage disabled by the browser: nothing is kept.
    return undefined;
  }
}

/** This tab's credentials, or undefined (none, or unreadable). */
export function loadSessionCredentials(): L2Credentials | undefined {
  try {
    const raw = storage()?.getItem(KEY);
    return raw ? normalizeCredentials(JSON.parse(raw) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Validates and keeps `input` for this tab; returns what was kept. */
export function saveSessionCredentials(input: L2Credentials): L2Credentials {
  const creds = normalizeCredentials(input);
  const s = storage();
  if (!s) throw new Error('This browser keeps no session storage, so the credentials cannot be kept.');
  s.setItem(KEY, JSON.stringify(creds));
  return creds;
}

export function clearSessionCredentials(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
