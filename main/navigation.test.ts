/**
 * The link rule of the desktop window (main/navigation.ts) and the dev-server rule
 * (main/dev-server.ts), without Electron; main-process.test.ts drives both in the built main.
 */
import { describe, expect, it } from 'vitest';
import { DEV_FLAG, trustedDevServerUrl } from './dev-server.ts';
import { decideLink, GESTURE_MS, GestureTracker, VENUE_SITES } from './navigation.ts';

const sites = VENUE_SITES['polymarket']!;

describe('links', () => {
  it('without a user gesture nothing opens, whatever the URL', () => {
    expect(decideLink('https://polymarket.com/event/x', { gesture: false, sites })).toEqual({ action: 'refuse' });
  });

  it("after a gesture: the venue's https pages open, other http(s) pages are asked about, the rest refused", () => {
    const d = (url: string) => decideLink(url, { gesture: true, sites }).action;
    expect(d('https://polymarket.com/event/x')).toBe('open');
    expect(d('https://docs.polymarket.com/')).toBe('open');
    expect(d('http://polymarket.com/event/x')).toBe('ask');
    expect(d('https://polymarket.com.evil.test/')).toBe('ask');
    expect(d('https://notpolymarket.com/')).toBe('ask');
    expect(d('https://www.example.com/resolution')).toBe('ask');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://u:p@polymarket.com/', 'not a url']) {
      expect(d(url), url).toBe('refuse');
    }
    expect(decideLink('https://kuest.com/m', { gesture: true, sites: VENUE_SITES['kuest']! }).action).toBe('open');
  });

  it('a click or key press counts for one link, for a moment', () => {
    let t = 0;
    const g = new GestureTracker(() => t);
    expect(g.consume()).toBe(false);
    g.note('mouseMove');
    expect(g.consume()).toBe(false);
    g.note('mouseUp');
    expect(g.consume()).toBe(true);
    expect(g.consume()).toBe(false);
    g.note('keyDown');
    t += GESTURE_MS + 1;
    expect(g.consume()).toBe(false);
  });
});

describe('dev server', () => {
  const dev = { NODE_ENV_ELECTRON_VITE: 'development', ELECTRON_RENDERER_URL: 'http://localhost:5173' };

  it('is trusted only under `npm run dev` (flag and electron-vite serving), unpackaged, on this machine', () => {
    expect(trustedDevServerUrl({ isPackaged: false, env: dev, argv: ['electron', '.', DEV_FLAG] })).toBe('http://localhost:5173/');
    // `npm start` with the variable left in the environment.
    expect(
      trustedDevServerUrl({ isPackaged: false, env: { ELECTRON_RENDERER_URL: dev.ELECTRON_RENDERER_URL }, argv: ['electron', '.'] }),
    ).toBe(undefined);
    expect(trustedDevServerUrl({ isPackaged: false, env: dev, argv: ['electron', '.'] })).toBeUndefined();
    expect(
      trustedDevServerUrl({ isPackaged: false, env: { ...dev, NODE_ENV_ELECTRON_VITE: 'production' }, argv: ['electron', '.', DEV_FLAG] }),
    ).toBeUndefined();
    expect(trustedDevServerUrl({ isPackaged: true, env: dev, argv: ['electron', '.', DEV_FLAG] })).toBeUndefined();
    for (const url of ['https://evil.test:5173', 'file:///tmp/x.html', 'http://user@localhost:5173']) {
      expect(
        trustedDevServerUrl({ isPackaged: false, env: { ...dev, ELECTRON_RENDERER_URL: url }, argv: [DEV_FLAG] }),
        url,
      ).toBeUndefined();
    }
  });
});
