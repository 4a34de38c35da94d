/**
 * The Alerts view: the log of what fired, newest first, and the rules the user set (from a
 * market, an event, a search or a screen). The log is on the left, clear of the side panel that
 * its entries open (it overlays the right below 1280 px). Both follow the push events (AlertsProvider); a fired
 * alert opens its market in the side panel. Web mode asks here for notification permission.
 */
import { useState } from 'react';
import { FiredLog } from '../alerts/FiredLog.tsx';
import { NotifyPermission } from '../alerts/NotifyPermission.tsx';
import { RuleList } from '../alerts/RuleList.tsx';
import { useAlertRules, useFiredAlerts } from '../alerts/useAlerts.ts';
import { fmtInt } from '../format.ts';
import { useNow } from '../hooks/useNow.ts';
import '../alerts/alerts.css';
import { plural } from '../plural.ts';

const PAGE = 100;
/** The log route's largest page. */
const MAX = 1000;

function Empty({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="empty alert-empty">
      <p className="empty-title">{title}</p>
      <p className="empty-hint">{hint}</p>
    </div>
  );
}

export function AlertsView() {
  const [limit, setLimit] = useState(PAGE);
  const rules = useAlertRules();
  const fired = useFiredAlerts(limit);
  const now = useNow(30_000);
  const list = rules.data?.rules ?? [];
  const log = fired.data?.fired ?? [];
  const total = fired.data?.total ?? 0;
  const state = rules.isPending || fired.isPending ? 'loading' : rules.isError || fired.isError ? 'error' : 'ready';
  return (
    <section className="view alerts-view" aria-label="Alerts" data-state={state}>
      <div className="toolbar">
        <span className="toolbar-title">Alerts</span>
        <span className="row-count">
          {plural(list.length, 'rule')} · {fmtInt(total)} fired
        </span>
        {/* Left, where the side panel (an overlay below 1280 px) never covers it. */}
        <NotifyPermission />
      </div>
      <div className="alerts-body">
        <section className="alerts-col" aria-labelledby="alerts-fired-h">
          <h2 className="section-h" id="alerts-fired-h">
            Fired
          </h2>
          {fired.isError ? <Empty title="Could not load the log" hint={fired.error.message} /> : null}
          {fired.data && log.length === 0 ? (
            <Empty title="Nothing fired yet" hint="Rules are checked after every catalog sync; what fires shows here, newest first." />
          ) : null}
          <FiredLog fired={log} now={now} />
          {total > log.length && limit < MAX ? (
            <button type="button" className="btn more" disabled={fired.isFetching} onClick={() => setLimit((n) => Math.min(MAX, n + PAGE))}>
              {fired.isFetching ? 'Loading…' : `Show more (${fmtInt(total - log.length)})`}
            </button>
          ) : null}
        </section>
        <section className="alerts-col" aria-labelledby="alerts-rules-h">
          <h2 className="section-h" id="alerts-rules-h">
            Rules
          </h2>
          {rules.isError ? <Empty title="Could not load the rules" hint={rules.error.message} /> : null}
          {rules.data && list.length === 0 ? (
            <Empty
              title="No alerts yet"
              hint="Set one with the Alert button of a market or event panel, or “Alert on new matches” in Search or on a screen."
            />
          ) : null}
          <RuleList rules={list} now={now} />
        </section>
      </div>
    </section>
  );
}
