/**
 * The identifiers, folded away at the end of the panel: they are for copying into scripts,
 * not for reading (two 78-digit token ids would otherwise push the figures down).
 */
import type { Market } from '../api.ts';
import { outcomesOf } from '../../../src/contract/market-rules.ts';
import { DASH } from '../format.ts';

export function TokenIds({ m }: { m: Market }) {
  const outcomes = outcomesOf(m);
  return (
    <details className="panel-ids" data-testid="panel-token-ids">
      <summary>Trading ids</summary>
      <dl className="id-list">
        {outcomes.map((o, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an outcome is its position (it pairs with the i-th token)
          <div key={i}>
            <dt>{o.name}</dt>
            <dd className="mono">{o.tokenId ?? DASH}</dd>
          </div>
        ))}
        <div>
          <dt>Protocol version</dt>
          <dd className="mono">{typeof m.version === 'string' && m.version ? m.version : DASH}</dd>
        </div>
        <div>
          <dt>Market id</dt>
          <dd className="mono">{m.id}</dd>
        </div>
        <div>
          <dt>Slug</dt>
          <dd className="mono">{m.slug ?? DASH}</dd>
        </div>
        <div>
          <dt>Condition id</dt>
          <dd className="mono">{m.conditionId ?? DASH}</dd>
        </div>
      </dl>
    </details>
  );
}
