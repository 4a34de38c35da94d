/**
 * The settings dialog's local API token (issue 16): what a script's writes over HTTP carry. Read
 * over IPC only (`apiToken.get`, never an HTTP route); hidden until asked, so it is not on screen
 * by accident, and selected whole on focus for copying (the window has no clipboard permission).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../api.ts';
import './ApiTokenField.css';

export function ApiTokenField({ httpEnabled }: { httpEnabled: boolean }) {
  const info = useQuery({ queryKey: ['apiToken.get'], queryFn: () => call('apiToken.get', {}), staleTime: Infinity });
  const [shown, setShown] = useState(false);
  if (!info.data) return info.error ? <p className="form-error">API token: {info.error.message}</p> : null;
  const { token, header, file } = info.data;
  return (
    <div className="form-field api-token-field">
      <span>Local API token</span>
      <div className="api-token-row">
        <input
          className="mono"
          aria-label="Local API token"
          type={shown ? 'text' : 'password'}
          readOnly
          value={token}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      <p className="dialog-text muted">
        Scripts that change the watchlist, alerts or screens over HTTP send it in the <code>{header}</code> header
        {httpEnabled ? '' : ' (the HTTP API is off)'}. Reads need no token. It is kept in {file !== null ? <code>{file}</code> : 'memory'},
        readable by you only; this window needs none.
      </p>
    </div>
  );
}
