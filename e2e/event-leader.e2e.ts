/**
 * Events lead with the favourite, as Polymarket shows them: the event panel lists the
 * highest-priced market first with placeholders hidden, and the Events grid shows the same
 * leader and its chance. Expected values come from the service's own /events answer.
 */
import { expect, test } from './support/fixtures.ts';
import { chanceText } from './support/chance-model.ts';
import { BY_DAY_VOLUME, gridShows, hasPrice, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;

const volume = (m: Json) => Number(m['volumeNum'] ?? m['volume'] ?? 0) || 0;
const yes = (m: Json) => pricesOf(m)[0] ?? -1;
const title = (m: Json) => String((typeof m['groupItemTitle'] === 'string' && m['groupItemTitle'].trim()) || m['question'] || m['id']);
/** The one chance rule (support/chance-model.ts). */
const chance = chanceText;
/** Open markets first (a settled 100% is not the favourite), then by "Yes" price, then by volume. */
const leaderFirst = (a: Json, b: Json) => Number(!!a['closed']) - Number(!!b['closed']) || yes(b) - yes(a) || volume(b) - volume(a);

test('the event panel and the Events grid lead with the highest-priced market', async ({ app: page, api }) => {
  // The grid's default order (24h volume, highest first); the first rows are on screen without scrolling.
  const events = (await api<Json[]>(`/events?limit=10&closed=false&${BY_DAY_VOLUME}`)).slice(0, 8);
  const multi = events
    .map((e, index) => {
      const priced = ((e['markets'] as Json[] | undefined) ?? []).filter(hasPrice);
      const byPrice = [...priced].sort(leaderFirst);
      const byVolume = [...priced].sort((a, b) => volume(b) - volume(a));
      return { e, index, priced, leader: byPrice[0], buried: byPrice[0] !== byVolume[0] };
    })
    .filter((c) => c.priced.length >= 2);
  // Best the case the issue is about: the favourite is not the busiest market.
  const pick = multi.find((c) => c.buried) ?? multi[0];
  expect(pick, 'a multi-market event among the first rows').toBeDefined();
  const { e, index, priced, leader } = pick!;

  await showTab(page, 'Events');
  await gridShows(
    page,
    events.map((x) => String(x['title'] ?? x['slug'] ?? x['id'])),
    'event-row',
  );
  const row = page.locator(`[data-testid="event-row"][data-index="${index}"]`);
  await expect(row.locator('.ev-leading')).toHaveText(title(leader!));
  await expect(row.locator('.ev-chance')).toHaveText(chance(yes(leader!)));
  await expect(row.locator('.ev-markets')).toHaveText(String(priced.length));

  await row.click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(e['title'] ?? e['slug'] ?? e['id']));
  // The panel reads /events/{id}: the expectation does too.
  const full = await api<Json>(`/events/${String(e['id'])}`);
  const all = (full['markets'] as Json[]) ?? [];
  const shown = all.filter(hasPrice);
  const top = [...shown].sort(leaderFirst)[0]!;
  const items = page.locator('[aria-label="Markets of this event"] > li > button');
  await expect(items).toHaveCount(shown.length);
  await expect(items.first().locator('.em-title')).toHaveText(title(top));
  const hidden = all.length - shown.length;
  const note = page.getByTestId('placeholders-hidden');
  if (hidden > 0) await expect(note).toHaveText(`${hidden} placeholder ${hidden === 1 ? 'market' : 'markets'} hidden`);
  else await expect(note).toHaveCount(0);
});
