/**
 * Web mode's notifications (the Notifications API). The desktop app's main process shows its own
 * for every firing, so the page shows none there: one firing, one notification.
 */
import { mode } from '../api.ts';
import { changeText, type FiredAlert, KIND_LABEL } from './describe.ts';

export type NotifyState = NotificationPermission | 'unsupported' | 'desktop';

export function notifyState(): NotifyState {
  if (mode === 'desktop') return 'desktop';
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser (it must run from the user's click); resolves to the new state. */
export async function askPermission(): Promise<NotifyState> {
  if (notifyState() !== 'default') return notifyState();
  return Notification.requestPermission();
}

/**
 * Shows one fired alert when the user allowed it; a click focuses the page and runs `onOpen`.
 * The tag is the firing's id, so two tabs of the web UI show it once.
 */
export function notifyFired(a: FiredAlert, onOpen: () => void): Notification | undefined {
  if (notifyState() !== 'granted') return undefined;
  const body = [KIND_LABEL[a.kind], changeText(a)].filter(Boolean).join(' · ');
  const n = new Notification(a.title, { body, tag: a.id });
  n.onclick = () => {
    window.focus();
    n.close();
    onOpen();
  };
  return n;
}
