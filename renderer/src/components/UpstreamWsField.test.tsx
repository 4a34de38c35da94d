// @vitest-environment happy-dom
import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { UpstreamWsField, wsHostText, wsHostValid, wsHostValue } from './UpstreamWsField.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The field in a parent that keeps its value, as the settings dialog's draft does. */
function mount(initial: string, inUse?: string | null) {
  const seen: string[] = [];
  function Parent() {
    const [v, setV] = useState(initial);
    return createElement(UpstreamWsField, {
      value: v,
      onChange: (x: string) => {
        seen.push(x);
        setV(x);
      },
      ...(inUse !== undefined ? { inUse } : {}),
    });
  }
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(createElement(Parent)));
  const input = () => host.querySelector<HTMLInputElement>('input')!;
  const type = (text: string) =>
    act(() => {
      // React tracks the value it set; go through the native setter so the change is seen.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input(), text);
      input().dispatchEvent(new Event('input', { bubbles: true }));
    });
  return { host, seen, input, type, unmount: () => act(() => root.unmount()) };
}

describe('upstream WebSocket host setting', () => {
  it("reads empty for the profile's default and writes '' to go back to it, or the host", () => {
    expect(wsHostText(undefined)).toBe('');
    expect(wsHostText('wss://ws.example.test')).toBe('wss://ws.example.test');
    expect(wsHostValue('')).toBe('');
    expect(wsHostValue('  ')).toBe('');
    expect(wsHostValue(' wss://ws.example.test/ ')).toBe('wss://ws.example.test');
    expect(
      ['', ' ', 'wss://ws-subscriptions-clob.polymarket.com', 'ws://127.0.0.1:7400', 'wss://h.example/prefix'].every(wsHostValid),
    ).toBe(true);
    expect(['https://ws.example', 'ws.example', 'wss://', 'wss://u:p@h.example', 'wss://h.example?x=1'].some(wsHostValid)).toBe(false);
  });

  it('shows the host in use, and flags what is not a ws(s) URL with the rule', () => {
    const f = mount('', 'wss://ws-subscriptions-clob.polymarket.com/ws/market');
    expect(f.input().value).toBe('');
    expect(f.input().placeholder).toMatch(/default/);
    expect(f.input().getAttribute('aria-invalid')).toBe('false');
    expect(f.host.textContent).toContain('in use now: wss://ws-subscriptions-clob.polymarket.com/ws/market');
    f.type('https://ws.example');
    expect(f.seen.at(-1)).toBe('https://ws.example');
    expect(f.input().getAttribute('aria-invalid')).toBe('true');
    expect(f.host.querySelector('.form-error')?.textContent).toMatch(/^Not a WebSocket host: use a ws:\/\/ or wss:\/\/ URL/);
    f.type('wss://ws.example.test');
    expect(f.input().getAttribute('aria-invalid')).toBe('false');
    expect(f.host.querySelector('.form-error')).toBeNull();
    f.unmount();
  });

  it('says nothing of a host in use when the core has none (offline)', () => {
    const f = mount('wss://ws.example.test', null);
    expect(f.input().value).toBe('wss://ws.example.test');
    expect(f.host.textContent).not.toContain('in use now');
    f.unmount();
  });
});
