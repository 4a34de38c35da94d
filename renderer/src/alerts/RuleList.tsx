/**
 * The alert rules: name, kind and condition, what it watches (a click opens a market or event
 * in the side panel), when it last fired, and a delete button. A refused delete says why.
 */
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useNav } from '../nav.tsx';
import { conditionText, KIND_LABEL, type AlertRule, targetText } from './describe.ts';
import { useRemoveAlert, useScreenNames } from './useAlerts.ts';

/**
 * The rule's name and what it watches. A made-up name already holds the market's question: then
 * the name itself opens the market, with no second line repeating it.
 */
function Heading({ rule, target }: { rule: AlertRule; target: string }) {
  const nav = useNav();
  const to = rule.market
    ? { kind: 'market' as const, id: rule.market.id }
    : rule.event
      ? { kind: 'event' as const, id: rule.event.id }
      : null;
  const named = rule.label.includes(target);
  const open = to ? () => nav.open(to.kind, to.id) : undefined;
  const label = <span className="alert-rule-label">{rule.label}</span>;
  return (
    <>
      {open && named ? (
        <button type="button" className="alert-rule-open" title={`Open ${target}`} onClick={open}>
          {label}
        </button>
      ) : (
        label
      )}
      <span className="alert-rule-meta">
        <span className={`alert-chip kind-${rule.kind}`}>{KIND_LABEL[rule.kind]}</span>
        <span className="muted">{conditionText(rule)}</span>
      </span>
      {named ? null : open ? (
        <button type="button" className="link-btn alert-target" title={target} onClick={open}>
          {target}
        </button>
      ) : (
        <span className="alert-target muted">{target}</span>
      )}
    </>
  );
}

export function RuleList({ rules, now }: { rules: AlertRule[]; now: number }) {
  const remove = useRemoveAlert();
  const screenName = useScreenNames();
  return (
    <>
      {remove.error ? (
        <p className="form-error" role="alert">
          Not deleted: {remove.error.message}
        </p>
      ) : null}
      <ul className="alert-rules" aria-label="Alert rules">
        {rules.map((r) => (
          <li key={r.id} className="alert-rule" data-testid="alert-rule" data-kind={r.kind}>
            <div className="alert-rule-main">
              <Heading rule={r} target={targetText(r, screenName)} />
            </div>
            <span
              className="alert-rule-fired muted"
              data-testid="alert-last-fired"
              title={r.lastFiredAt ? fmtDateTime(r.lastFiredAt) : undefined}
            >
              {r.lastFiredAt ? `fired ${fmtAgo(r.lastFiredAt, now)}` : 'not fired yet'}
            </span>
            <button
              type="button"
              className="icon-btn alert-delete"
              aria-label={`Delete alert ${r.label}`}
              title="Delete alert"
              disabled={remove.isPending && remove.variables === r.id}
              onClick={() => remove.mutate(r.id)}
            >
              <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5" fill="none" stroke="currentColor" strokeWidth="1.3" />
              </svg>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
