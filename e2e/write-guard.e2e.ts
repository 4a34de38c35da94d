/**
 * Writes over HTTP in a browser (issue 16): the web UI's page carries the local API token and
 * stars a market with it; the same page's write without the token is refused, and a page of
 * another site (another port) cannot write even when it knows the token. Expected state comes
 * from the service's own answers. The desktop settings (emulated preload) show the token.
 */
import { installBridge } from './support/bridge.ts';
import { openApp } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { gridShows, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);

test('the web UI stars with its token; a write without it, or from another site, changes nothing', async ({
  app: page,
  api,
  service,
  fake,
}) => {
  const token = service.apiToken.token;
  await expect(page.locator('meta[name="marketdesk-token"]')).toHaveAttribute('content', token);

  await showTab(page, 'Markets');
  const [first, second] = await api<Json[]>('/markets?limit=2&closed=false&order=volume24hr&ascending=false');
  await gridShows(page, [label(first!), label(second!)]);
  await page
    .getByRole('button', { name: `Add ${label(first!)} to watchlist` })
    .first()
    .click();
  const watched = async () => (await api<{ items: { id: string }[] }>('/watchlist')).items.map((i) => i.id);
  await expect.poll(watched).toEqual([String(first!['id'])]);

  // The page's own origin, no token: 401 and nothing changes.
  const bare = await page.evaluate(async (id) => {
    const r = await fetch(`../watchlist?kind=market&id=${id}`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    return { status: r.status, body: (await r.json()) as unknown };
  }, String(second!['id']));
  expect(bare).toEqual({
    status: 401,
    body: { type: 'unauthorized', error: 'missing X-Marketdesk-Token header: a write needs the local API token' },
  });

  // Another site's page (the fake upstream's origin) with the token: its preflight is refused, and a
  // "simple" no-cors POST is refused too.
  await page.goto(`${fake.url}/markets?limit=1`);
  const url = `${service.baseUrl}/watchlist/market/${String(first!['id'])}`;
  const add = `${service.baseUrl}/watchlist?kind=market&id=${String(second!['id'])}`;
  const tried = await page.evaluate(
    async ({ url, add, token }) => {
      const out: string[] = [];
      try {
        const r = await fetch(url, { method: 'DELETE', headers: { 'x-marketdesk-token': token } });
        out.push(`answered ${r.status}`);
      } catch {
        out.push('blocked');
      }
      await fetch(add, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: token }).catch(() => {});
      return out;
    },
    { url, add, token },
  );
  expect(tried).toEqual(['blocked']);
  expect(await watched()).toEqual([String(first!['id'])]);
});

// The desktop path (emulated preload, real service): the settings dialog shows the token, read over IPC.
const desktop = test.extend({
  app: async ({ service, page }, use) => {
    await installBridge(page, service);
    await openApp(page, service.baseUrl!);
    await use(page);
  },
});

desktop('the desktop settings show the API token, its header and its file, hidden until asked', async ({ app: page, service }) => {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const field = dialog.getByRole('textbox', { name: 'Local API token' });
  // A password input has no textbox role until shown.
  await expect(dialog.getByLabel('Local API token')).toHaveAttribute('type', 'password');
  await expect(dialog).toContainText(service.apiToken.file!);
  await expect(dialog).toContainText('X-Marketdesk-Token');
  await dialog.getByRole('button', { name: 'Show' }).click();
  await expect(field).toHaveValue(service.apiToken.token);
});
