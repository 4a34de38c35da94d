/**
 * The built main process (out/main/index.js) under plain Node with an `electron` stand-in
 * (main/testing/): window options, the IPC relay into the real service worker, sender checks,
 * settings and UI state files, credentials stored encrypted, the `service` push event, and a
 * clean quit. What only real Electron can show (preload, sandbox, safeStorage) is in e2e/.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { opNames } from '../src/contract/index.ts';
import { tempDir } from '../src/testing/fixtures.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'out/main/index.js');
const CREDS = { apiKey: 'k-1234', secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=', passphrase: 'p', address: `0x${'ab'.repeat(20)}` };

describe('main process (built, electron stand-in)', () => {
  const data = tempDir();
  afterAll(() => data.cleanup());

  it('relays IPC to the service worker, checks senders, stores state and credentials, quits cleanly', async (ctx) => {
    if (!existsSync(MAIN)) return ctx.skip('out/main is not built (npm run build)');
    const child = spawn(process.execPath, ['--import', path.join(ROOT, 'main/testing/drive-main.mjs'), MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        MARKETDESK_USER_DATA_DIR: data.dir,
        MARKETDESK_OFFLINE: '1',
        MARKETDESK_BASE_PORT: '0',
        MARKETDESK_CLOB_PORT: '0',
        // Left over in the environment of an `npm start`: never trusted outside `npm run dev`.
        ELECTRON_RENDERER_URL: 'http://127.0.0.1:9/',
        DRIVE_CREDS: JSON.stringify(CREDS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toContain('STUB-QUIT');
    const line = out.split('\n').find((l) => l.startsWith('DRIVE '));
    expect(line, out).toBeDefined();
    const r = JSON.parse(line!.slice(6)) as Record<
      string,
      { ok?: boolean; status?: number; body?: unknown; result?: unknown } & Record<string, unknown>
    >;

    expect(r['window']).toEqual({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      args: [`--marketdesk-ops=${opNames.join(',')}`],
    });
    expect(r['status']).toMatchObject({ ok: true, result: { offline: true } });
    expect(r['markets']).toMatchObject({ ok: true, result: [] });
    expect(r['badParam']).toEqual({
      ok: false,
      status: 400,
      body: { type: 'bad request', error: 'limit must be an integer between 1 and 100' },
    });
    expect(r['unknownOp']).toMatchObject({ ok: false, status: 400 });
    expect(r['untrusted']).toMatchObject({ ok: false, status: 403 });
    expect(r['settings']).toEqual({ ok: true, result: { httpEnabled: true, basePort: 7310, clobPort: 7311, allowedOrigins: [] } });
    expect(r['badOrigins']).toMatchObject({ ok: false, status: 400, body: { error: expect.stringMatching(/not an origin/) } });
    expect(r['badWsHost']).toMatchObject({
      ok: false,
      status: 400,
      body: { error: expect.stringMatching(/^the upstream WebSocket host must be a ws:\/\/ or wss:\/\/ URL/) },
    });
    expect(r['wsHost']).toMatchObject({ ok: true, result: { clobWsUrl: 'wss://ws.example.test' } });
    expect(r['afterRestart']).toMatchObject({ ok: true, result: { offline: true } });
    expect(r['icon']).toEqual({
      privileged: [{ scheme: 'marketdesk-icon', privileges: { standard: true, secure: true, supportFetchAPI: true } }],
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
    expect(r['loaded']).toBe(path.join(ROOT, 'out/renderer/index.html'));
    expect(r['nav']).toEqual({
      scriptOpen: 'deny',
      scriptNavigatePrevented: true,
      openedWithoutClick: [],
      clickNavigatePrevented: true,
      opened: ['https://polymarket.com/event/clicked', 'https://docs.polymarket.com/page', 'https://example.com/accepted'],
      asked: ['http://polymarket.com/event/plain-http', 'https://example.com/cancelled', 'https://example.com/accepted'],
    });
    expect(r['loadUi']).toEqual({ ok: true, result: { tab: 'events' } });
    expect(r['storage']).toEqual({ ok: true, result: { available: true, weak: false } });
    expect(r['credsBefore']).toMatchObject({ ok: true, result: { configured: false } });
    expect(r['credsSet']).toMatchObject({ ok: true, result: { configured: true, address: CREDS.address } });
    expect(r['credsAfter']).toMatchObject({ ok: true, result: { configured: true } });
    expect(r['serviceEvents']).toContain('running');
    expect(r['serviceEvents']).toContain('restarting');

    // On disk: credentials encrypted, UI and window state written.
    const creds = readFileSync(path.join(data.dir, 'credentials.bin'));
    expect(creds.toString('latin1')).not.toContain(CREDS.secret);
    expect(JSON.parse(readFileSync(path.join(data.dir, 'ui-state.json'), 'utf8'))).toEqual({ tab: 'events' });
    expect(JSON.parse(readFileSync(path.join(data.dir, 'settings.json'), 'utf8'))).toMatchObject({ clobWsUrl: 'wss://ws.example.test' });
    expect(JSON.parse(readFileSync(path.join(data.dir, 'window-state.json'), 'utf8'))).toMatchObject({
      width: 1280,
      height: 800,
      maximized: false,
    });
  });
});
