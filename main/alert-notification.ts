/**
 * A fired alert as a desktop notification (issue 16). The text and what a click opens are plain
 * functions (tested without Electron); `showAlertNotification` is the one Electron call, given the
 * `Notification` class so it stays importable anywhere. A click focuses the window and tells the
 * renderer which alert to open (desktop event `alertOpen`: the alert, with its market or event).
 */
import type { AlertKind, FiredAlert } from '../src/contract/alerts-ops.ts';

const KIND_TITLES: Record<AlertKind, string> = {
  price_cross: 'Price crossed a level',
  price_move: 'Price moved',
  new_match: 'New match',
  rule_edit: 'Rules edited',
  ends_soon: 'Ending soon',
  order_done: 'Order update',
};

/** The notification's title and body; the body is the alert's own one line. */
export function alertNotificationContent(alert: FiredAlert): { title: string; body: string } {
  return { title: KIND_TITLES[alert.kind] ?? 'Alert', body: alert.title };
}

/** What the Electron Notification class offers that this module uses. */
export interface NotificationLike {
  on(event: 'click' | 'close', fn: () => void): unknown;
  show(): void;
}
export type NotificationClass = (new (o: { title: string; body: string }) => NotificationLike) & { isSupported(): boolean };

/** Shown ones, referenced until clicked or closed: an unreferenced notification loses its click handler to the GC. */
const live = new Set<NotificationLike>();

/** Shows the alert; `onClick` runs when the user clicks it. False when the system has no notifications. */
export function showAlertNotification(Notification: NotificationClass, alert: FiredAlert, onClick: (alert: FiredAlert) => void): boolean {
  if (!Notification.isSupported()) return false;
  const n = new Notification(alertNotificationContent(alert));
  live.add(n);
  n.on('click', () => {
    live.delete(n);
    onClick(alert);
  });
  n.on('close', () => live.delete(n));
  n.show();
  return true;
}
