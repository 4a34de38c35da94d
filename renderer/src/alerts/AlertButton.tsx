/**
 * The "Alert" button of a market or event panel, a search or a screen: opens the alert dialog
 * for its subject. On a market or event it shows how many rules already watch it.
 */
import { useState } from 'react';
import { AlertDialog } from './AlertDialog.tsx';
import type { AlertSubject } from './describe.ts';
import { useRulesAbout } from './useAlerts.ts';
import './alerts.css';
import { plural } from '../plural.ts';

export function BellIcon({ size = 14 }: { size?: number }) {
  return (
    <svg viewBox="0 0 16 16" width={size} height={size} aria-hidden="true" className="bell">
      <path
        d="M8 1.8a4.2 4.2 0 0 0-4.2 4.2v2.6L2.5 11h11l-1.3-2.4V6A4.2 4.2 0 0 0 8 1.8z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinejoin="round"
      />
      <path d="M6.3 12.8a1.8 1.8 0 0 0 3.4 0" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" />
    </svg>
  );
}

export function AlertButton({ subject, text = 'Alert' }: { subject: AlertSubject; text?: string }) {
  const [open, setOpen] = useState(false);
  const about = subject.kind === 'market' || subject.kind === 'event' ? subject : undefined;
  const n = useRulesAbout(about?.kind, about?.id).length;
  return (
    <>
      <button
        type="button"
        className="btn alert-btn"
        title={n > 0 ? `${plural(n, 'alert')} on this ${about?.kind}; set another` : 'Set an alert'}
        aria-label={n > 0 ? `${text} (${n} set)` : text}
        aria-haspopup="dialog"
        onClick={(e) => {
          // Safe inside a clickable row.
          e.stopPropagation();
          setOpen(true);
        }}
      >
        <BellIcon />
        {text}
        {n > 0 ? (
          <span className="alert-count" data-testid="alert-count">
            {n}
          </span>
        ) : null}
      </button>
      {open ? <AlertDialog subject={subject} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
