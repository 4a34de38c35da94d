/**
 * Orders a trader can narrow and weigh (issue 27): words in any order, side, outcome and status
 * filter the list; each order shows its remaining size, value and distance from its market's
 * price; a row opens its market over the Orders view. Every expected value is computed here from
 * the fake upstream's own orders and catalog records (its `outcomePrices`), not from the service.
 */
import type { Page } from '@playwright/test';
import type { FakeUpstream, RawOrder } from '../src/fake-upstream/index.ts';
import { expect, test } from './support/fixtures.ts';
import { type Creds, fillCredentials, showTab } from './support/journeys.ts';

const CREDS: Creds = {
  apiKey: '5a0c7e21-3b4d-4e8f-9a1b-2c3d4e5f6a7b',
  secret: Buffer.from('marketdesk-orders-filters-e2e-secret').toString('base64url'),
  passphrase: 'orders-filters-passphrase',
  address: `0x${'d4'.repeat(20)}`,
};

test.use({ clob: { credentials: CREDS }, serviceOptions: { credentials: CREDS } });

interface MarketFacts {
  question: string;
  title: string;
  outcomes: string[];
  tokens: string[];
  prices: number[];
}

/** What the fake's catalog says of the orders' markets, by condition id. */
function marketsOf(fake: FakeUpstream, orders: readonly RawOrder[]): Map<string, MarketFacts> {
  const want = new Set(orders.map((o) => o.market));
  const out = new Map<string, MarketFacts>();
  for (const rec of fake.catalog.marketRecords()) {
    const m = rec.obj as Record<string, unknown>;
    const id = m['conditionId'];
    if (typeof id !== 'string' || !want.has(id) || out.has(id)) continue;
    const events = m['events'] as { title?: string }[] | undefined;
    out.set(id, {
      question: String(m['question']),
      title: events?.[0]?.title ?? '',
      outcomes: JSON.parse(String(m['outcomes'])) as string[],
      tokens: JSON.parse(String(m['clobTokenIds'])) as string[],
      prices: (JSON.parse(String(m['outcomePrices'])) as string[]).map(Number),
    });
  }
  return out;
}

const rowsOf = (page: Page) => page.getByTestId('order-row');
const shownIds = (page: Page) => rowsOf(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-order-id')));
const newestFirst = (orders: readonly RawOrder[]) => [...orders].sort((a, b) => b.created_at - a.created_at);

const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const moneyExact = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const moneyFull = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const money = (n: number) => (Math.abs(n) < 100 ? moneyExact.format(n) : moneyFull.format(n));
/** Signed cents to a tenth, with the minus sign the app prints. */
const distance = (cents: number) => {
  const c = Math.round(cents * 10) / 10;
  return c === 0 ? '0¢' : `${c > 0 ? '+' : '\u2212'}${Math.abs(c)}¢`;
};

test('filter orders by words in any order, side, outcome and status; remaining, value and distance; open a market over Orders', async ({
  app: page,
  fake,
}) => {
  const orders = fake.clob!.orders;
  const markets = marketsOf(fake, orders);
  const outcomeOf = (o: RawOrder) => {
    const m = markets.get(o.market);
    return (m ? m.outcomes[m.tokens.indexOf(o.asset_id)] : undefined) ?? o.outcome;
  };
  const hasWords = (o: RawOrder, text: string) => {
    const m = markets.get(o.market);
    const hay = [m?.question ?? '', m?.title ?? '', outcomeOf(o)].join('\n').toLowerCase();
    return text
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((w) => hay.includes(w));
  };

  await showTab(page, 'Orders');
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  await fillCredentials(page, CREDS);
  await expect(page.locator('.view[aria-label="Orders"][data-state="ready"]')).toBeVisible();
  await expect(page.getByTestId('orders-total')).toHaveText(`${orders.length} orders`);

  // Two words of a question, backwards: the orders whose market (or outcome) has both.
  const long = (o: RawOrder) => (markets.get(o.market)?.question ?? '').split(' ').filter((w) => w.length > 3);
  const sample = orders.find((o) => long(o).length >= 3)!;
  const words = long(sample);
  const text = `${words.at(-1)} ${words[0]}`;
  const byWords = newestFirst(orders.filter((o) => hasWords(o, text)));
  expect(byWords.length, 'the words find some orders, not all').toBeGreaterThan(0);
  const filter = page.getByLabel('Filter by market, event or outcome words');
  await filter.fill(text);
  await expect.poll(() => shownIds(page)).toEqual(byWords.slice(0, 100).map((o) => o.id));
  await expect(page.getByTestId('orders-total')).toHaveText(`${byWords.length} ${byWords.length === 1 ? 'order' : 'orders'}`);

  // Narrowed by side and outcome: the words still apply.
  const side = byWords.some((o) => o.side === 'SELL') ? 'SELL' : 'BUY';
  const outcome = outcomeOf(byWords.find((o) => o.side === side)!);
  await page.getByLabel('Side', { exact: true }).selectOption(side);
  await page.getByLabel('Outcome', { exact: true }).fill(outcome.toLowerCase());
  const narrowed = byWords.filter((o) => o.side === side && outcomeOf(o) === outcome);
  expect(narrowed.length).toBeGreaterThan(0);
  await expect.poll(() => shownIds(page)).toEqual(narrowed.map((o) => o.id));

  // Status: the fake's orders are all live, so "matched" finds none, and says why.
  await page.getByLabel('Status', { exact: true }).selectOption('matched');
  await expect(page.getByTestId('orders-empty')).toContainText('No orders match these filters');
  await page.getByLabel('Status', { exact: true }).selectOption('live');
  await expect.poll(() => shownIds(page)).toEqual(narrowed.map((o) => o.id));

  // Remaining, value and distance from the market's price, per row, from the fake's own numbers.
  const cells = (col: string) => page.locator(`[data-testid="order-row"] td[data-col="${col}"]`);
  const remaining = (o: RawOrder) => Number(o.original_size) - Number(o.size_matched);
  await expect(cells('remaining')).toHaveText(narrowed.map((o) => decimal.format(remaining(o))));
  await expect(cells('value')).toHaveText(narrowed.map((o) => money(remaining(o) * Number(o.price))));
  await expect(cells('distance')).toHaveText(
    narrowed.map((o) => {
      const m = markets.get(o.market)!;
      // To a millionth of a cent, as the service gives it, before the tenth the cell shows.
      return distance(Number(((Number(o.price) - m.prices[m.tokens.indexOf(o.asset_id)]!) * 100).toFixed(6)));
    }),
  );
  // The header says which price the distance is from.
  await expect(page.getByRole('columnheader', { name: 'Distance' })).toHaveAttribute('title', /as of the last sync/);

  // Sorting by value, highest first, over the filtered orders.
  await page.getByRole('columnheader', { name: 'Value' }).getByRole('button').click();
  const byValue = [...narrowed].sort(
    (a, b) => remaining(b) * Number(b.price) - remaining(a) * Number(a.price) || b.created_at - a.created_at,
  );
  await expect
    .poll(async () => (await cells('value').allTextContents()).join('|'))
    .toBe(byValue.map((o) => money(remaining(o) * Number(o.price))).join('|'));

  // A row opens its market in the panel over the Orders view: the tab stays Orders.
  const first = byValue[0]!;
  await rowsOf(page).first().locator('td[data-col="price"]').click();
  await expect(page.getByTestId('detail-title')).toHaveText(markets.get(first.market)!.question);
  await expect(page.locator('.app')).toHaveAttribute('data-tab', 'orders');
  await expect(page.getByRole('tab', { name: 'Orders', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.view[aria-label="Orders"]')).toBeVisible();
});

test('the credentials dialog says where a polymarket.com user gets the keys', async ({ app: page }) => {
  await showTab(page, 'Orders');
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  const help = page.locator('dialog[open]').getByTestId('credentials-help');
  await help.getByText('Where do I find these?').click();
  await expect(help).toContainText('/auth/api-key');
  await expect(help).toContainText('createOrDeriveApiKey()');
  await expect(help).toContainText('The secret never leaves this tab');
  for (const field of ['API key', 'Secret', 'Passphrase', 'Wallet address'])
    await expect(help.locator('dt', { hasText: field })).toBeVisible();
});
