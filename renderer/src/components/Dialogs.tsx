/**
 * The credentials dialog (set / clear the CLOB API credentials; the secret is never shown
 * back: desktop hands them to the core, web mode keeps them in this tab's sessionStorage) and
 * the desktop settings dialog (HTTP faces on/off, ports, origins allowed to call them, closed history kept, the upstream
 * WebSocket host, the API token).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, credentials, mode, settings, type CredentialsInput } from '../api.ts';
import { useNav } from '../nav.tsx';
import { useCredentialsStatus } from '../hooks/useOrders.ts';
import { normalizeOrigin } from '../../../src/contract/origins.ts';
import { HorizonField, horizonText, horizonValid, horizonValue } from './HorizonField.tsx';
import { ApiTokenField } from './ApiTokenField.tsx';
import { UpstreamWsField, wsHostText, wsHostValid, wsHostValue } from './UpstreamWsField.tsx';
import { CredentialsHelp } from './CredentialsHelp.tsx';

function Modal({ open, onClose, label, children }: { open: boolean; onClose: () => void; label: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-label={label} onClose={onClose} onCancel={onClose}>
      {open ? children : null}
    </dialog>
  );
}

const EMPTY: CredentialsInput = { apiKey: '', secret: '', passphrase: '', address: '' };

export function CredentialsDialog() {
  const nav = useNav();
  const queryClient = useQueryClient();
  const status = useCredentialsStatus();
  const storage = useQuery({
    queryKey: ['credentials.storage'],
    queryFn: credentials.storage,
    enabled: mode === 'desktop',
    staleTime: Infinity,
  });
  const [form, setForm] = useState(EMPTY);
  const close = () => {
    setForm(EMPTY);
    nav.setCredentialsOpen(false);
  };
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: ['credentials.status'] });
    // Web mode: nothing of the previous credentials' answers (orders, a refusal) may linger.
    if (mode === 'web') void queryClient.resetQueries({ queryKey: ['orders.list'] });
    else void queryClient.invalidateQueries({ queryKey: ['orders.list'] });
    close();
  };
  const save = useMutation({ mutationFn: (c: CredentialsInput) => credentials.set(c), onSuccess: done });
  const clear = useMutation({ mutationFn: () => credentials.clear(), onSuccess: done });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };
  const field = (k: keyof CredentialsInput, label: string, type: 'text' | 'password', hint?: string) => (
    <label className="form-field">
      <span>{label}</span>
      <input
        type={type}
        name={k}
        autoComplete="off"
        spellCheck={false}
        required
        value={form[k]}
        placeholder={hint}
        onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))}
      />
    </label>
  );
  const error = (save.error ?? clear.error)?.message;
  return (
    <Modal open={nav.credentialsOpen} onClose={close} label="API credentials">
      <form className="dialog-body" onSubmit={submit} method="dialog">
        <h2 className="dialog-title">API credentials</h2>
        {mode === 'web' ? (
          <p className="dialog-text">
            Your CLOB L2 API credentials let this page read your live orders from the service. They stay in this browser tab (session
            storage, forgotten when the tab closes) and only sign your requests; the secret is never sent. The service accepts them only if
            they are the ones it was started with (<code>npm run serve -- --credentials FILE</code> or the <code>MARKETDESK_*</code>{' '}
            variables).
          </p>
        ) : (
          <p className="dialog-text">
            Your CLOB L2 API credentials let the service read your live orders. They are encrypted with your system keyring and only the
            service process reads them; this window never sees the secret again.
          </p>
        )}
        <CredentialsHelp />
        {status.data?.configured ? (
          <p className="dialog-status" data-testid="credentials-status">
            Set for <span className="mono">{status.data.address}</span>
            {mode === 'web' ? ' in this tab' : ''}.
          </p>
        ) : (
          <p className="dialog-status muted">No credentials set.</p>
        )}
        {storage.data && !storage.data.available ? (
          <p className="form-error">This system offers no keyring: credentials are used for this session only and not stored.</p>
        ) : storage.data?.weak ? (
          <p className="form-error">No system keyring was found: credentials are stored with weak obfuscation only.</p>
        ) : null}
        {field('apiKey', 'API key', 'text', 'uuid')}
        {field('secret', 'Secret', 'password')}
        {field('passphrase', 'Passphrase', 'password')}
        {field('address', 'Wallet address', 'text', '0x…')}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          {status.data?.configured ? (
            <button type="button" className="btn btn-danger" onClick={() => clear.mutate()} disabled={clear.isPending}>
              Clear credentials
            </button>
          ) : null}
          <span className="toolbar-spacer" />
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function SettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ['settings'], queryFn: settings.get, enabled: mode === 'desktop' && open });
  // The same query as the status bar's (live.tsx): the market channel the core uses now.
  const status = useQuery({ queryKey: ['service.status', {}], queryFn: api.service.status, enabled: open, staleTime: 5000, retry: false });
  const [draft, setDraft] = useState<{
    httpEnabled: boolean;
    basePort: string;
    clobPort: string;
    origins: string;
    horizon: string;
    wsHost: string;
  }>();
  useEffect(() => {
    if (current.data)
      setDraft({
        httpEnabled: current.data.httpEnabled,
        basePort: String(current.data.basePort),
        clobPort: String(current.data.clobPort),
        origins: current.data.allowedOrigins.join('\n'),
        horizon: horizonText(current.data.horizonDays),
        wsHost: wsHostText(current.data.clobWsUrl),
      });
  }, [current.data]);
  const originLines = (draft?.origins ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const badOrigin = originLines.find((l) => normalizeOrigin(l) === undefined);
  const save = useMutation({
    mutationFn: () =>
      settings.set({
        httpEnabled: draft!.httpEnabled,
        basePort: Number(draft!.basePort),
        clobPort: Number(draft!.clobPort),
        allowedOrigins: originLines,
        horizonDays: horizonValue(draft!.horizon),
        clobWsUrl: wsHostValue(draft!.wsHost),
      }),
    onSuccess: (s) => {
      queryClient.setQueryData(['settings'], s);
      // The core restarted: its market channel may have moved.
      void queryClient.invalidateQueries({ queryKey: ['service.status'] });
      onClose();
    },
  });
  const port = (v: string) => /^\d{1,5}$/.test(v) && Number(v) <= 65535;
  return (
    <Modal open={open} onClose={onClose} label="Settings">
      <form
        className="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          if (!draft || !port(draft.basePort) || !port(draft.clobPort) || badOrigin !== undefined) return;
          if (horizonValid(draft.horizon) && wsHostValid(draft.wsHost)) save.mutate();
        }}
      >
        <h2 className="dialog-title">Settings</h2>
        {draft ? (
          <>
            <label className="check-field">
              <input type="checkbox" checked={draft.httpEnabled} onChange={(e) => setDraft({ ...draft, httpEnabled: e.target.checked })} />
              <span>Serve the HTTP API and web UI on this computer (127.0.0.1 only)</span>
            </label>
            <div className="form-row">
              <label className="form-field">
                <span>Base port</span>
                <input
                  inputMode="numeric"
                  value={draft.basePort}
                  disabled={!draft.httpEnabled}
                  onChange={(e) => setDraft({ ...draft, basePort: e.target.value })}
                />
              </label>
              <label className="form-field">
                <span>CLOB port</span>
                <input
                  inputMode="numeric"
                  value={draft.clobPort}
                  disabled={!draft.httpEnabled}
                  onChange={(e) => setDraft({ ...draft, clobPort: e.target.value })}
                />
              </label>
            </div>
            <label className="form-field">
              <span>Other sites allowed to call the API from a browser (one origin per line, like http://localhost:5173)</span>
              <textarea
                rows={3}
                value={draft.origins}
                disabled={!draft.httpEnabled}
                spellCheck={false}
                aria-invalid={badOrigin !== undefined}
                onChange={(e) => setDraft({ ...draft, origins: e.target.value })}
              />
            </label>
            {badOrigin !== undefined ? <p className="form-error">Not an origin (scheme://host[:port], no path): {badOrigin}</p> : null}
            <HorizonField value={draft.horizon} onChange={(horizon) => setDraft({ ...draft, horizon })} />
            <UpstreamWsField value={draft.wsHost} onChange={(wsHost) => setDraft({ ...draft, wsHost })} inUse={status.data?.live.url} />
            <ApiTokenField httpEnabled={draft.httpEnabled} />
            <p className="dialog-text muted">
              Saving restarts the local service (a second or two). Settings are kept in settings.json in the app's data folder.
            </p>
            {save.error ? <p className="form-error">{save.error.message}</p> : null}
          </>
        ) : (
          <p className="muted">Loading…</p>
        )}
        <div className="dialog-actions">
          <span className="toolbar-spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!draft || save.isPending}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
