/**
 * The settings dialog's upstream WebSocket host (`--clob-ws-url` under `npm run serve`): where the
 * service opens its market channel sockets for live prices, books and trades (`<host>/ws/market`).
 * Empty: the profile's default. Validated as main validates it (src/contract/ws-host.ts).
 */
import { normalizeWsHost, WS_HOST_RULE } from '../../../src/contract/ws-host.ts';

/** The field's text from the setting: empty when the profile's default is used. */
export const wsHostText = (v: string | undefined): string => v ?? '';
export const wsHostValid = (v: string): boolean => v.trim() === '' || normalizeWsHost(v) !== undefined;
/** What `settings.set` gets: '' puts the profile's default back. */
export const wsHostValue = (v: string): string => normalizeWsHost(v) ?? '';

export function UpstreamWsField({ value, onChange, inUse }: { value: string; onChange: (v: string) => void; inUse?: string | null }) {
  const valid = wsHostValid(value);
  return (
    <>
      <label className="form-field">
        <span>Upstream WebSocket host (live prices, books and trades)</span>
        <input
          type="text"
          aria-label="Upstream WebSocket host"
          aria-invalid={!valid}
          value={value}
          placeholder="the profile's default"
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {valid ? (
        <p className="dialog-text muted">
          Empty: the profile's default. The market channel is at this host's <code>/ws/market</code>
          {inUse ? (
            <>
              ; in use now: <code>{inUse}</code>
            </>
          ) : null}
          .
        </p>
      ) : (
        <p className="form-error">Not a WebSocket host: use {WS_HOST_RULE}</p>
      )}
    </>
  );
}
