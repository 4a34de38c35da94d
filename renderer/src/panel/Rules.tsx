/** The market's rules: its description (how it resolves), a recent edit of it, and the resolution source. */
import type { Market } from '../api.ts';
import { DASH } from '../format.ts';
import { ExternalLink, isUrl } from './Links.tsx';
import { RulesText } from './RulesDiff.tsx';

export function Rules({ m }: { m: Market }) {
  return (
    <section className="panel-section" aria-label="Rules" data-testid="panel-rules">
      <h3 className="detail-h">Rules</h3>
      <RulesText kind="market" id={m.id} text={m.description} />
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
