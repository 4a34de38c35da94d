/**
 * The column kinds the markets and events grids share: the name (star, icon, text), money
 * (compact in the cell, exact in the tooltip, the number when copied), dates and the status.
 */
import type { WatchKind } from '../../../src/contract/enums.ts';
import { isoDate } from '../../../src/contract/plain-cells.ts';
import { StatusBadge } from '../components/cells.tsx';
import { Icon } from '../components/Icon.tsx';
import { fmtDate, fmtDateTime, fmtMoney, fmtMoneyFull, num, STATUS_LABEL, type StatusFields, statusOf, statusTitle } from '../format.ts';
import type { GridColumn } from '../grid/DataGrid.tsx';
import { Star } from '../watchlist.tsx';

type Row = { id: string };
type Status = StatusFields;

/** A sortable column: `id` is the service's `order` field it sorts by. */
export function nameColumn<T extends Row, S extends string>(
  kind: WatchKind,
  id: S,
  header: string,
  name: (row: T) => string,
  title: (row: T) => string | undefined,
): GridColumn<T, S> {
  return {
    id,
    header,
    size: 380,
    minSize: 220,
    // Room to tell names apart (two lines of about 55 characters) before optional columns show.
    fitSize: 400,
    grow: true,
    sortable: true,
    className: 'name-cell',
    cell: (row) => (
      <>
        <Star kind={kind} id={row.id} label={name(row)} />
        <Icon kind={kind} id={row.id} size={18} settleMs={150} />
        <span className="name-text">{name(row)}</span>
      </>
    ),
    title,
    text: name,
  };
}

/** A sortable money column; `priority` as GridColumn's (absent: always shown). */
export function moneyColumn<T, S extends string>(id: S, header: string, value: (row: T) => unknown, priority?: number): GridColumn<T, S> {
  return {
    id,
    header,
    size: id.startsWith('liquidity') ? 90 : 84,
    minSize: 72,
    align: 'right',
    sortable: true,
    descFirst: true,
    ...(priority !== undefined ? { priority } : {}),
    cell: (row) => fmtMoney(value(row)),
    // The exact amount, as the compact one rounds it.
    title: (row) => (num(value(row)) === undefined ? undefined : fmtMoneyFull(value(row))),
    text: (row) => num(value(row)),
  };
}

export function dateColumn<T, S extends string>(id: S, header: string, value: (row: T) => unknown, priority: number): GridColumn<T, S> {
  return {
    id,
    header,
    size: 104,
    sortable: true,
    priority,
    cell: (row) => fmtDate(value(row)),
    title: (row) => fmtDateTime(value(row)),
    // As the CSV export writes it: ISO 8601, which a spreadsheet reads as a date in any locale.
    text: (row) => isoDate(value(row)),
  };
}

/** Not sortable (`never`: no `order` field): the service has no order by status. "Ended": past its end date, not yet resolved. */
export function statusColumn<T extends Status>(priority: number): GridColumn<T, never> {
  return {
    id: 'status',
    header: 'Status',
    size: 84,
    priority,
    cell: (row) => <StatusBadge item={row} />,
    title: (row) => statusTitle(row),
    text: (row) => STATUS_LABEL[statusOf(row)],
  };
}
