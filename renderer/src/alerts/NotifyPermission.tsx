/**
 * Whether fired alerts become system notifications. Web mode asks the browser, only on the
 * user's click; the desktop app always notifies (its main process does).
 */
import { useState } from 'react';
import { askPermission, type NotifyState, notifyState } from './notify.ts';
import { BellIcon } from './AlertButton.tsx';

const TEXT: Record<Exclude<NotifyState, 'default'>, string> = {
  granted: 'Notifications on',
  denied: 'Notifications blocked in this browser’s site settings',
  unsupported: 'This browser cannot show notifications',
  desktop: 'Desktop notifications on',
};

export function NotifyPermission() {
  const [state, setState] = useState<NotifyState>(notifyState);
  if (state === 'default') {
    return (
      <button type="button" className="btn" onClick={() => void askPermission().then(setState, () => setState(notifyState()))}>
        <BellIcon />
        Enable notifications
      </button>
    );
  }
  return (
    <span className={`alert-notify muted notify-${state}`} data-testid="notify-state">
      {TEXT[state]}
    </span>
  );
}
