/**
 * `serve --clob-ws-url`: the built CLI opens its upstream market channel sockets at that host
 * (a socket stub here), serves scripts at the clob face's `/ws/market`, shows the live layer in
 * `/status`, and opens no socket at all with `--offline`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStatus } from '../contract/live.ts';
import { cleanupAfterEach, runCli } from '../testing/cli-run.ts';
import { tempDir } from '../testing/fixtures.ts';
import { MarketScript } from '../testing/market-script.ts';
import { MarketWsStub } from '../testing/market-ws-stub.ts';

const cleanup = cleanupAfterEach();
let stub: MarketWsStub;
beforeAll(async () => {
  stub = await MarketWsStub.start();
});
afterAll(() => stub.close());

function serve(...args: string[]) {
  const t = tempDir();
  cleanup(t.cleanup);
  const dead = 'http://127.0.0.1:9';
  return runCli(['serve', '--data-dir', t.dir, '--base-port', '0', '--clob-port', '0', '--gamma-url', dead, '--clob-url', dead, ...args], {
    cleanup,
    env: { XDG_CONFIG_HOME: t.dir },
  });
}

const status = async (base: string) => ((await (await fetch(`${base}/status`)).json()) as { live: LiveStatus }).live;

describe('serve --clob-ws-url', () => {
  it('refuses a URL that is not ws(s)', async () => {
    const run = serve('--clob-ws-url', 'https://ws.example');
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/--clob-ws-url must be a ws\(s\) URL\nusage: npm run serve/);
  });

  it('subscribes upstream at that host for a script on /ws/market', async () => {
    const run = serve('--clob-ws-url', stub.url);
    const [, channel, upstream] = await run.line(/market channel for scripts: (ws:\S+) \(upstream (\S+)\)/);
    expect(upstream).toBe(`${stub.url}/ws/market`);
    const [, base] = await run.line(/base: (http:\S+)/);
    const id = '930000000001';
    const script = new MarketScript(channel!);
    cleanup(() => script.close());
    await script.opened;
    script.send({ assets_ids: [id], type: 'market' });
    await expect.poll(() => script.book(id), { interval: 5, timeout: 20_000 }).toEqual(stub.levels(id));
    expect(await status(base!)).toMatchObject({ state: 'live', url: `${stub.url}/ws/market`, assets: 1, sockets: { open: 1 } });
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  });

  it('opens no socket with --offline', async () => {
    const opened = stub.opened;
    const run = serve('--offline', '--clob-ws-url', stub.url);
    const [, channel] = await run.line(/market channel for scripts: (ws:\S+) \(offline: no upstream socket\)/);
    const [, base] = await run.line(/base: (http:\S+)/);
    const script = new MarketScript(channel!);
    cleanup(() => script.close());
    await script.opened;
    script.send({ assets_ids: ['930000000002'], type: 'market' });
    script.send('PING');
    await expect.poll(() => script.texts.includes('PONG'), { interval: 5, timeout: 20_000 }).toBe(true);
    expect(await status(base!)).toMatchObject({ state: 'off', url: null, assets: 1, sockets: { total: 0 } });
    expect(stub.opened).toBe(opened);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  });
});
