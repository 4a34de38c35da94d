/**
 * The credentials dialog's "Where do I find these?": polymarket.com shows no API keys on its
 * pages, so a trader needs telling that the key, secret and passphrase are made from their
 * wallet (the CLOB's L1 `/auth/api-key` flow, which the official clients wrap), what each field
 * is, and where the secret goes (nowhere past the service, or past this tab in web mode).
 */
import { mode } from '../api.ts';
import './CredentialsHelp.css';

export function CredentialsHelp() {
  return (
    <details className="credentials-help" data-testid="credentials-help">
      <summary>Where do I find these?</summary>
      <p>
        polymarket.com does not show API keys on its pages. They are made from your wallet: signing one message with the wallet's private
        key asks Polymarket's order book (the CLOB) for a key at <code>/auth/api-key</code>, or for the same key again at{' '}
        <code>/auth/derive-api-key</code>. The official clients do both in one call, <code>createOrDeriveApiKey()</code> in the TypeScript
        client or <code>create_or_derive_api_creds()</code> in the Python one; running it again gives back the same three values, so nothing
        is lost if you forget them.
      </p>
      <p>
        If you signed in to polymarket.com with email or Google, your wallet is one Polymarket holds for you: export its private key from
        your polymarket.com settings first, and keep it secret. The key, secret and passphrase let a program read and cancel your orders;
        they cannot withdraw funds.
      </p>
      <dl>
        <dt>API key</dt>
        <dd>
          The key's id, a UUID such as <span className="mono">1b9e3c47-8a2d-…</span> (<code>apiKey</code> or <code>key</code> in the
          client's answer).
        </dd>
        <dt>Secret</dt>
        <dd>
          Base64 text that signs each request.{' '}
          {mode === 'web'
            ? 'The secret never leaves this tab: the tab signs with it and forgets it when it closes.'
            : 'The secret never leaves the local service: it keeps it, encrypted, and signs with it.'}
        </dd>
        <dt>Passphrase</dt>
        <dd>Goes with the key on each request, as the CLOB asks.</dd>
        <dt>Wallet address</dt>
        <dd>
          The <span className="mono">0x…</span> address of the wallet that made the key (the one whose private key signed), not the deposit
          address polymarket.com shows on your profile.
        </dd>
      </dl>
    </details>
  );
}
