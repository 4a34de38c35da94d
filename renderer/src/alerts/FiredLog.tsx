/**
 * The alerts log, newest first (the service's order): when, what (the service's one-line title),
 * and before → after. A click opens the market (or event) in the side panel.
 */
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useNav } from '../nav.tsx';
import { changeText, type FiredAlert, firedTarget, KIND_LABEL } from './describe.ts';

function FiredItem({ a, now, open }: { a: FiredAlert; now: number; open: boolean }) {
  const nav = useNav();
  const to = firedTarget(a);
  const change = changeText(a);
  const body = (
    <>
      <time className="alert-fired-at muted" dateTime={a.at} title={fmtDateTime(a.at)}>
        {fmtAgo(a.at, now)}
      </time>
      <span className="alert-fired-title" data-testid="alert-fired-title">
        {a.title}
      </span>
      <span className="alert-fired-meta">
        <span className={`alert-chip kind-${a.kind}`}>{KIND_LABEL[a.kind]}</span>
        {change ? <span className="alert-change num">{change}</span> : null}
      </span>
    </>
  );
  return (
    <li data-testid="alert-fired" className={open ? 'open' : undefined}>
      {to ? (
        <button type="button" className="alert-fired" onClick={() => nav.open(to.kind, to.id)}>
          {body}
        </button>
      ) : (
        <div className="alert-fired">{body}</div>
      )}
    </li>
  );
}

export function FiredLog({ fired, now }: { fired: FiredAlert[]; now: number }) {
  const nav = useNav();
  const isOpen = (a: FiredAlert) => {
    const to = firedTarget(a);
    return !!to && nav.detail?.kind === to.kind && nav.detail.id === to.id;
  };
  return (
    <ol className="alert-log" aria-label="Fired alerts">
      {fired.map((a) => (
        <FiredItem key={a.id} a={a} now={now} open={isOpen(a)} />
      ))}
    </ol>
  );
}
