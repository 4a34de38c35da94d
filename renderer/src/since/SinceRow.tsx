/** One market or event in a Since group: one click opens it in the side panel. */
import type { ReactNode } from 'react';
import { Icon } from '../components/Icon.tsx';
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useNav } from '../nav.tsx';
import type { ItemKind, Marks } from './groups.ts';

export interface RowItem extends Marks {
  kind: ItemKind;
  id: string;
  title: string;
  at: string;
}

export function SinceRow({ item, now, children }: { item: RowItem; now: number; children: ReactNode }) {
  const nav = useNav();
  const open = nav.detail?.kind === item.kind && nav.detail.id === item.id;
  return (
    <li>
      <button
        type="button"
        className={`since-row${open ? ' open' : ''}`}
        aria-current={open ? 'true' : undefined}
        data-testid="since-row"
        data-kind={item.kind}
        data-id={item.id}
        onClick={() => nav.open(item.kind, item.id)}
      >
        <Icon kind={item.kind} id={item.id} size={28} />
        <span className="since-main">
          <span className="since-title" title={item.title}>
            {item.title}
          </span>
          <span className="since-sub">
            <RowMarks item={item} />
            <time dateTime={item.at} title={fmtDateTime(item.at)}>
              {fmtAgo(item.at, now)}
            </time>
          </span>
        </span>
        <span className="since-detail">{children}</span>
      </button>
    </li>
  );
}

function RowMarks({ item }: { item: RowItem }) {
  return (
    <>
      {item.watched ? (
        <span className="since-star" data-testid="since-watched" role="img" aria-label="On your watchlist" title="On your watchlist">
          ★
        </span>
      ) : null}
      {item.orders ? (
        <span className="since-badge since-badge-order" data-testid="since-orders" title="You have open orders here">
          order
        </span>
      ) : null}
      {item.kind === 'event' ? <span className="since-badge">event</span> : null}
    </>
  );
}
