/** The market's rules: its description (how it resolves) and the resolution source. */
import type { Market } from '../api.ts';
import { DASH } from '../format.ts';
import { ExternalLink, isUrl } from './Links.tsx';

export function Rules({ m }: { m: Market }) {
  return (
    <section className="panel-section" aria-label="Rules" data-testid="panel-rules">
      <h3 className="detail-h">Rules</h3>
      {m.description ? <p className="detail-text prewrap">{m.description}</p> : <p className="muted">No rules text published.</p>}
      <h3 className="detail-h">Resolution source</h3>
      <p className="detail-text">
        {isUrl(m.resolutionSource) ? (
          <ExternalLink href={m.resolutionSource}>{m.resolutionSource}</ExternalLink>
        ) : (
          m.resolutionSource || DASH
        )}
      </p>
    </section>
  );
}
