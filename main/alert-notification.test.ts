/** The alert notification without Electron: its text, and that a click hands the alert to the window. */
import { describe, expect, it } from 'vitest';
import type { FiredAlert } from '../src/contract/alerts-ops.ts';
import { alertNotificationContent, showAlertNotification, type NotificationLike } from './alert-notification.ts';

const ALERT: FiredAlert = {
  id: 'f1',
  ruleId: 'r1',
  kind: 'price_cross',
  at: '2026-11-23T10:00:00.000Z',
  title: 'Fed cuts in December? crossed 60¢ (58¢ → 63¢)',
  market: { id: '7', slug: 'fed-cuts', question: 'Fed cuts in December?' },
  before: 0.58,
  after: 0.63,
};

function fakeNotification(supported: boolean) {
  const shown: { options: { title: string; body: string }; handlers: Map<string, () => void> }[] = [];
  class Fake implements NotificationLike {
    private readonly handlers = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported = () => supported;
    on(event: 'click' | 'close', fn: () => void) {
      this.handlers.set(event, fn);
      return this;
    }
    show() {
      shown.push({ options: this.options, handlers: this.handlers });
    }
  }
  return { Fake, shown };
}

describe('alert notifications', () => {
  it('titles the notification by kind and uses the alert line as its body', () => {
    expect(alertNotificationContent(ALERT)).toEqual({ title: 'Price crossed a level', body: ALERT.title });
    expect(alertNotificationContent({ ...ALERT, kind: 'order_done', title: 'Order filled: BUY 10 Yes' }).title).toBe('Order update');
  });

  it('shows it, and a click hands the alert (with its market) to the window', () => {
    const { Fake, shown } = fakeNotification(true);
    const clicked: FiredAlert[] = [];
    expect(showAlertNotification(Fake, ALERT, (a) => clicked.push(a))).toBe(true);
    expect(shown.map((s) => s.options)).toEqual([{ title: 'Price crossed a level', body: ALERT.title }]);
    expect(clicked).toEqual([]);
    shown[0]!.handlers.get('click')!();
    expect(clicked).toEqual([ALERT]);
  });

  it('shows nothing where the system has no notifications', () => {
    const { Fake, shown } = fakeNotification(false);
    expect(showAlertNotification(Fake, ALERT, () => {})).toBe(false);
    expect(shown).toEqual([]);
  });
});
