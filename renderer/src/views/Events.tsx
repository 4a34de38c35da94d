/**
 * The events grid: a catalog view over `events.list` (catalog/event-columns.tsx) under the saved
 * event screens' tabs; opening an event lists its markets in the detail panel.
 */
import { api, call, type Event } from '../api.ts';
import { EVENT_COLUMNS } from '../catalog/event-columns.tsx';
import { prepareRows } from '../grid/DataGrid.tsx';
import type { CatalogConfig } from './Catalog.tsx';
import { ScreenedCatalog } from './ScreenedCatalog.tsx';

export { EVENT_COLUMNS };

const fetchEvents = async (p: Record<string, unknown>) => {
  const rows = await api.events.list(p);
  prepareRows(EVENT_COLUMNS, rows);
  return rows;
};

export const EVENTS: CatalogConfig<Event, 'events'> = {
  label: 'Events',
  noun: 'event',
  prefs: 'events',
  op: 'events.list',
  countOp: 'events.count',
  columns: EVENT_COLUMNS,
  fetchRows: fetchEvents,
  fetchCount: async (p) => (await call('events.count', p)).count,
  withEvent: false,
  rowTestId: 'event-row',
};

export function EventsView() {
  return <ScreenedCatalog kind="events" config={EVENTS} />;
}
