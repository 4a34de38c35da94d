/**
 * Live (issue 26), as a trader meets it in a browser. The fake upstream's market channel moves the
 * book of the first row's market: the row's chance changes to the price the fake's own book gives
 * (Polymarket's rule: the midpoint when the spread is at most 10¢, else the last trade), its page
 * shows the live book and the trades on its tape, and the status bar shows the stream. When the
 * fake freezes its sockets the numbers say they are stale, and the status bar turns amber; when it
 * thaws, they are live again. Expected values come from the fake's own books and trade events.
 */
import type { Locator, Page } from '@playwright/test';
import { displayPrice } from '../src/contract/live.ts';
import { tradingIds } from '../src/contract/market-rules.ts';
import type { FakeUpstream, MarketEvent } from '../src/fake-upstream/index.ts';
import type { Market } from '../src/contract/types.ts';
import { fmtCents, fmtChance } from '../renderer/src/chance.ts';
import { expect, test } from './support/fixtures.ts';
import { gridSettled } from './support/env.ts';
import { BY_DAY_VOLUME, shownMarkets, showTab } from './support/journeys.ts';

// Quiet 3 s: stale; silent 6 s: the socket is replaced (the defaults are 10 and 20 s).
test.use({ serviceOptions: { live: { silentMs: 6_000 } } });

/** The chance the fake's own book gives an asset, as the grid prints it. */
function fakeChance(fake: FakeUpstream, assetId: string): string {
  const b = fake.marketWs.book(assetId)!;
  const bid = b.bids.length ? Math.max(...b.bids.map((l) => Number(l.price))) : null;
  const ask = b.asks.length ? Math.min(...b.asks.map((l) => Number(l.price))) : null;
  return fmtChance(displayPrice(bid, ask, b.last_trade_price === '' ? null : Number(b.last_trade_price)) ?? undefined);
}

const row = (page: Page, index: number) => page.locator(`[data-testid="market-row"][data-index="${index}"]`);
/** The row's chance: the first live value in it (the Chance column comes before 24h change and spread). */
const chanceOf = (r: Locator) => r.locator('.live-value').first();

test('a row ticks with the fake, the page shows its book and tape, and freshness follows the stream', async ({ app: page, api, fake }) => {
  await showTab(page, 'Markets');
  await gridSettled(page);
  const [first] = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 1);
  const m = first as unknown as Market;
  const ids = tradingIds(m);
  expect(ids.ok, 'the first row can trade').toBe(true);
  const yes = ids.ok ? ids.ids[0]! : '';
  expect(String(JSON.parse(String(m.outcomes))[0]).toLowerCase()).toBe('yes');

  // The row streams: its chance is the fake's, and live.
  const cell = chanceOf(row(page, 0));
  await expect(cell).toHaveAttribute('data-freshness', 'live');
  await expect(cell).toHaveText(fakeChance(fake, yes));
  await expect(page.getByTestId('stream-health')).toHaveAttribute('data-state', 'live');

  // Buyers take the asks until the chance the fake's book gives reads differently; the row follows.
  const before = await cell.textContent();
  const trades: MarketEvent[] = [];
  for (let i = 0; i < 40 && fakeChance(fake, yes) === before; i++) {
    const ask = fake.marketWs.book(yes)!.asks.at(-1)!;
    trades.push(
      ...fake.marketWs.emit(yes, { type: 'trade', side: 'BUY', size: ask.size }).filter((e) => e.event_type === 'last_trade_price'),
    );
  }
  const after = fakeChance(fake, yes);
  expect(after, 'the fake moved the price').not.toBe(before);
  await expect(cell).toHaveText(after);

  // The market page: its book is the live one, equal to the fake's best bid and ask; the tape lists the trades, newest first.
  await row(page, 0).click();
  const book = page.getByTestId('order-book');
  await expect(book).toHaveAttribute('data-live', 'true');
  const fb = fake.marketWs.book(yes)!;
  await expect(page.getByTestId('book-best-bid')).toHaveText(fmtCents(Math.max(...fb.bids.map((l) => Number(l.price)))));
  await expect(page.getByTestId('book-best-ask')).toHaveText(fmtCents(Math.min(...fb.asks.map((l) => Number(l.price)))));
  const tape = page.getByTestId('tape-row');
  await expect(tape).toHaveCount(trades.length);
  const newest = trades.at(-1)!;
  await expect(tape.first()).toContainText('Buy');
  await expect(tape.first()).toContainText(fmtCents(Number(newest['price'])));
  await expect(page.getByTestId('market-freshness')).toHaveText('Live');

  // The fake freezes: no frame at all. The numbers turn stale, the status bar amber.
  fake.marketWs.faults.freeze();
  await expect(cell).toHaveAttribute('data-freshness', /stale|sync/);
  await expect(page.getByTestId('market-freshness')).toHaveAttribute('data-freshness', /stale|sync/);
  await expect(page.getByTestId('stream-health')).toHaveAttribute('data-state', 'stalled');

  // Thawed, the replaced socket takes a fresh snapshot: live again, with the fake's price.
  fake.marketWs.faults.thaw();
  await expect(cell).toHaveAttribute('data-freshness', 'live');
  await expect(cell).toHaveText(fakeChance(fake, yes));
  await expect(page.getByTestId('stream-health')).toHaveAttribute('data-state', 'live');
});
