/** A Since group: its name and count, the first TOP_N rows and "show all". */
import { type ReactNode, useId, useState } from 'react';
import { type RowItem, SinceRow } from './SinceRow.tsx';

export const TOP_N = 8;

export function SinceGroup<T extends RowItem>(props: {
  id: string;
  title: string;
  items: T[];
  now: number;
  none: string;
  detail: (item: T) => ReactNode;
}) {
  const { items } = props;
  const [all, setAll] = useState(false);
  const headId = useId();
  const shown = all ? items : items.slice(0, TOP_N);
  return (
    <section className="since-group" aria-labelledby={headId} data-testid={`since-group-${props.id}`}>
      <h2 className="since-head" id={headId}>
        {props.title}
        <span className="since-count" data-testid="since-count">
          {items.length}
        </span>
      </h2>
      {items.length === 0 ? (
        <p className="since-none">{props.none}</p>
      ) : (
        <ul className="since-list">
          {shown.map((item) => (
            <SinceRow key={`${item.kind}:${item.id}`} item={item} now={props.now}>
              {props.detail(item)}
            </SinceRow>
          ))}
        </ul>
      )}
      {items.length > TOP_N ? (
        <button type="button" className="since-more" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${items.length}`}
        </button>
      ) : null}
    </section>
  );
}
