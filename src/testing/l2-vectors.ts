/**
 * L2 signing test material shared by the service's verifier tests and the web UI's signer
 * tests: the official vectors' all-zero secret, and an account whose secret uses both
 * base64url characters (`-`, `_`), so alphabet handling matters.
 */
import type { Credentials } from '../auth/credentials.ts';

export const ZERO_SECRET = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export const TEST_CREDS: Credentials = {
  apiKey: '000000000-0000-0000-0000-000000000000',
  secret: 'q-_3xY1vZ8TfK0r2WmN4pLs6Hd9Gc7Ba5Ej1Ui3Oo-A=',
  passphrase: 'a'.repeat(64),
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
};

/** A fixed "now" (ms) for signatures. */
export const TEST_NOW = 1_750_000_000_000;
