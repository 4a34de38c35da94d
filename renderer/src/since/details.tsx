/** What each group shows on the right of a row: the numbers behind the change. */
import { fmtCents, fmtChance } from '../chance.ts';
import { fmtChange, fmtDate, fmtMoney } from '../format.ts';
import type { EditItem, MoverItem, NewItem, ResolvedItem } from './groups.ts';

export function NewDetail({ item }: { item: NewItem }) {
  return (
    <>
      <span className="since-big">{fmtChance(item.price)}</span>
      <span className="since-small">{fmtMoney(item.volume24hr)} 24h</span>
    </>
  );
}

export function ResolvedDetail({ item }: { item: ResolvedItem }) {
  return item.winner === undefined ? (
    <span className="since-small">Resolved</span>
  ) : (
    <>
      <span className="since-small">Resolved</span>
      <span className="since-big since-winner" data-testid="since-winner">
        {item.winner}
      </span>
    </>
  );
}

export function MoverDetail({ item }: { item: MoverItem }) {
  const delta = item.after - item.before;
  return (
    <>
      <span className={`since-big ${delta >= 0 ? 'since-up' : 'since-down'}`} data-testid="since-move">
        {fmtCents(item.before)} → {fmtCents(item.after)}
      </span>
      <span className="since-small">{fmtChange(delta)} pts</span>
    </>
  );
}

export function EditDetail({ item }: { item: EditItem }) {
  return (
    <>
      {item.rules ? (
        <span className="since-small" data-testid="since-rules">
          Rules edited
        </span>
      ) : null}
      {item.endDate ? (
        <span className="since-small" data-testid="since-end">
          Ends {fmtDate(item.endDate.before)} → {fmtDate(item.endDate.after)}
        </span>
      ) : null}
    </>
  );
}
