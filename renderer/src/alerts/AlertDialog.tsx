/**
 * The alert dialog: pick what to watch for (the kinds this subject offers), set its values,
 * optionally name it, and create it (POST /alerts through the typed client). The service's
 * 400 message shows inline and nothing is saved; on success the dialog closes.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { quote } from '../../../src/contract/quote.ts';
import { AlertFields } from './AlertFields.tsx';
import { type AlertForm, type AlertSubject, createParams, initialForm, KIND_LABEL, kindsFor } from './describe.ts';
import { useCreateAlert } from './useAlerts.ts';
import './alerts.css';

const KIND_HINT: Partial<Record<AlertForm['kind'], string>> = {
  price_cross: 'The price reaches a level',
  price_move: 'A fast move, either way',
  ends_soon: 'A reminder before the end',
  rule_edit: 'The resolution terms change',
  new_match: 'A new market appears',
};

function subjectTitle(s: AlertSubject): string {
  if (s.kind === 'search') return `Search ${quote(s.q)}`;
  if (s.kind === 'screen') return `Screen ${quote(s.name)}`;
  return s.title;
}

export function AlertDialog({ subject, onClose }: { subject: AlertSubject; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [f, setF] = useState<AlertForm>(() => initialForm(subject));
  const set = (patch: Partial<AlertForm>) => setF((old) => ({ ...old, ...patch }));
  const create = useCreateAlert(onClose);
  const kinds = kindsFor(subject);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal?.();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(createParams(subject, f));
  };
  return (
    <dialog ref={ref} className="dialog alert-dialog" aria-label="New alert" onClose={onClose} onCancel={onClose}>
      <form className="dialog-body" onSubmit={submit} noValidate>
        <h2 className="dialog-title">New alert</h2>
        <p className="alert-subject" title={subjectTitle(subject)}>
          {subjectTitle(subject)}
        </p>
        {kinds.length > 1 ? (
          <fieldset className="alert-kinds">
            <legend className="visually-hidden">Alert when</legend>
            {kinds.map((k) => (
              <label key={k} className={`alert-kind${f.kind === k ? ' on' : ''}`}>
                <input type="radio" name="alert-kind" value={k} checked={f.kind === k} onChange={() => set({ kind: k })} />
                <span className="alert-kind-name">{KIND_LABEL[k]}</span>
                <span className="alert-kind-hint">{KIND_HINT[k]}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <AlertFields subject={subject} f={f} set={set} />
        <label className="form-field">
          <span>Name (optional)</span>
          <input value={f.label} maxLength={120} placeholder="Made from the rule" onChange={(e) => set({ label: e.target.value })} />
        </label>
        {create.error ? (
          <p className="form-error" role="alert" data-testid="alert-error">
            {create.error.message}
          </p>
        ) : null}
        <div className="dialog-actions">
          <span className="toolbar-spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create alert'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
