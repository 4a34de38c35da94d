/**
 * Question/title templates by topic. Each event draws a topic; the topic decides its tags,
 * possible series and how 1..10 markets are phrased (single yes/no or a group of items).
 */
import { pick, randInt, type Rng } from './prng.ts';
import { flat, personName, properName } from './text.ts';

export interface MarketFrame {
  question: string;
  groupItemTitle: string;
  /** JSON-encoded outcomes, exactly as Gamma sends them. */
  outcomes: string;
  /** Resolution condition, inserted into the description template. */
  clause: string;
}

export interface EventFrame {
  title: string;
  /** Tag labels the topic implies, most general first. */
  tagLabels: string[];
  /** Series this event may belong to (a key into the series table). */
  seriesKey: string;
  markets: MarketFrame[];
}

export const YES_NO = '["Yes", "No"]';
const UP_DOWN = '["Up", "Down"]';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const PLACES = [
  'United States',
  'France',
  'Germany',
  'Brazil',
  'Japan',
  'India',
  'Canada',
  'Mexico',
  'Texas',
  'California',
  'New York',
  'Florida',
  'Ontario',
  'Poland',
  'Chile',
  'Kenya',
  'Australia',
  'Spain',
  'Italy',
  'South Korea',
];
export const COINS = ['Bitcoin', 'Ethereum', 'Solana', 'XRP', 'Dogecoin', 'Cardano'];
export const LEAGUES = ['NBA', 'NFL', 'MLB', 'NHL', 'EPL', 'La Liga', 'Serie A', 'Champions League', 'ATP', 'LoL Worlds'];
const CITIES = [
  'Denver',
  'Boston',
  'Austin',
  'Seattle',
  'Lyon',
  'Porto',
  'Osaka',
  'Madrid',
  'Milan',
  'Leeds',
  'Dallas',
  'Miami',
  'Toronto',
  'Munich',
];
const OFFICES = ['presidential', 'senate', 'mayoral', 'gubernatorial', 'parliamentary'];
const BANKS = ['Fed', 'ECB', 'Bank of England', 'Bank of Japan'];
const COMPANIES = ['OpenAI', 'Google', 'Anthropic', 'Meta', 'xAI', 'Mistral', 'Apple', 'Nvidia'];
const AWARDS = ['Best Picture', 'Album of the Year', 'Best Actor', "Ballon d'Or"];

export const TOPICS = ['politics', 'crypto', 'sports', 'economy', 'tech', 'culture', 'world'] as const;
export type Topic = (typeof TOPICS)[number];
/** Rough share of each topic in the real catalog (crypto and sports dominate by count). */
const TOPIC_WEIGHTS: Record<Topic, number> = {
  politics: 0.2,
  crypto: 0.3,
  sports: 0.25,
  economy: 0.08,
  tech: 0.07,
  culture: 0.06,
  world: 0.04,
};

export function pickTopic(rng: Rng): Topic {
  let r = rng();
  for (const t of TOPICS) {
    r -= TOPIC_WEIGHTS[t];
    if (r < 0) return t;
  }
  return 'world';
}

/** The series table: a few dozen, each tied to a topic. */
export interface SeriesSpec {
  key: string;
  title: string;
  recurrence: string;
}
export function seriesSpecs(): SeriesSpec[] {
  const out: SeriesSpec[] = [];
  for (const c of COINS) out.push({ key: flat`crypto:${c}`, title: flat`${c} Up or Down Daily`, recurrence: 'daily' });
  for (const l of LEAGUES) out.push({ key: flat`sports:${l}`, title: flat`${l} Games`, recurrence: 'weekly' });
  for (const p of PLACES.slice(0, 10)) out.push({ key: flat`politics:${p}`, title: flat`${p} Polling`, recurrence: '' });
  for (const b of BANKS) out.push({ key: flat`economy:${b}`, title: flat`${b} Decisions`, recurrence: 'monthly' });
  for (const c of COMPANIES.slice(0, 3)) out.push({ key: flat`tech:${c}`, title: flat`${c} Releases`, recurrence: '' });
  out.push({ key: 'culture:Box Office', title: 'Weekend Box Office', recurrence: 'weekly' });
  out.push({ key: 'culture:Awards', title: 'Award Season', recurrence: 'annual' });
  out.push({ key: 'world:Summits', title: 'World Summits', recurrence: '' });
  return out;
}

/** "1,234,567": toLocaleString goes through ICU and is far too slow in a 500k loop. */
function money(n: number): string {
  const s = String(Math.round(n));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ',';
    out += s[i];
  }
  return out;
}

function fitQuestion(q: string, rng: Rng, year: number): string {
  // Keep questions in the real 50..85 character band.
  if (q.length < 50) {
    const extra = pick(rng, [flat` before the end of ${year}`, flat` by December 31, ${year}`, flat` according to official sources`]);
    q = q.endsWith('?') ? [q.slice(0, -1), extra, '?'].join('') : [q, extra].join('');
  }
  if (q.length > 85) {
    const cut = q.lastIndexOf(' ', 83);
    q = [q.slice(0, cut > 40 ? cut : 84), '?'].join('');
  }
  return q;
}

interface Item {
  label: string;
  question: string;
  clause: string;
  outcomes?: string;
}

/** Build the frame of one event with flat`k` markets, dated around flat`endMs`. */
export function frameEvent(rng: Rng, topic: Topic, k: number, endMs: number): EventFrame {
  const d = new Date(endMs);
  const year = d.getUTCFullYear();
  const when = flat`${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  let title: string;
  let tagLabels: string[];
  let seriesKey: string;
  let items: Item[];
  const group = k > 1;
  const people = (n: number) => Array.from({ length: n }, () => personName(rng));

  switch (topic) {
    case 'politics': {
      const place = pick(rng, PLACES);
      const office = pick(rng, OFFICES);
      tagLabels = ['Politics', 'Elections', place];
      seriesKey = flat`politics:${place}`;
      if (group) {
        title = flat`${place} ${office} election winner ${year}`;
        items = people(k).map((p) => ({
          label: p,
          question: flat`Will ${p} win the ${year} ${place} ${office} election?`,
          clause: flat`${p} wins the ${year} ${place} ${office} election`,
        }));
      } else {
        const p = personName(rng);
        title = pick(rng, [
          flat`Will ${p} win the ${year} ${place} ${office} election?`,
          flat`Will ${p} leave office in ${place} before ${when}, ${year}?`,
        ]);
        items = [{ label: '', question: title, clause: flat`the stated outcome for ${p} occurs by ${when}, ${year}` }];
      }
      break;
    }
    case 'crypto': {
      const coin = pick(rng, COINS);
      tagLabels = ['Crypto', coin, 'Crypto Prices'];
      seriesKey = flat`crypto:${coin}`;
      const base = randInt(rng, 1, 120) * (coin === 'Bitcoin' ? 1000 : coin === 'Ethereum' ? 100 : 1);
      if (group) {
        title = flat`${coin} price on ${when}, ${year}?`;
        items = Array.from({ length: k }, (_, i) => {
          const level = money(base + i * Math.max(1, Math.round(base / 20)));
          return {
            label: flat`>${level}`,
            question: flat`Will the price of ${coin} be above $${level} on ${when}, ${year}?`,
            clause: flat`the ${coin} price is above $${level} on ${when}, ${year}`,
          };
        });
      } else if (rng() < 0.5) {
        title = flat`${coin} Up or Down on ${when}, ${year}, ${randInt(rng, 1, 12)}${rng() < 0.5 ? 'AM' : 'PM'} ET?`;
        items = [
          { label: '', question: title, clause: flat`the ${coin} closing price is higher than its opening price`, outcomes: UP_DOWN },
        ];
      } else {
        title = flat`Will ${coin} reach $${money(base)} by ${when}, ${year}?`;
        items = [{ label: '', question: title, clause: flat`${coin} trades at or above $${money(base)} before ${when}, ${year}` }];
      }
      break;
    }
    case 'sports': {
      const league = pick(rng, LEAGUES);
      tagLabels = ['Sports', league, 'Games'];
      seriesKey = flat`sports:${league}`;
      const team = () => flat`${pick(rng, CITIES)} ${properName(rng)}s`;
      if (group) {
        title = flat`${league} ${year} Champion`;
        items = Array.from({ length: k }, () => {
          const t = team();
          return {
            label: t,
            question: flat`Will the ${t} win the ${year} ${league} title?`,
            clause: flat`the ${t} win the ${year} ${league} title`,
          };
        });
      } else {
        const a = team();
        const b = team();
        title = flat`${league}: ${a} vs. ${b} (${when}, ${year})`;
        items = [
          {
            label: '',
            question: title,
            clause: flat`the ${a} win the game scheduled for ${when}, ${year}`,
            outcomes: flat`[${JSON.stringify(a)}, ${JSON.stringify(b)}]`,
          },
        ];
      }
      break;
    }
    case 'economy': {
      const bank = pick(rng, BANKS);
      tagLabels = ['Economy', bank === 'Fed' ? 'Fed' : 'Central Banks', 'Interest Rates'];
      seriesKey = flat`economy:${bank}`;
      if (group) {
        title = flat`${bank} decision in ${MONTHS[d.getUTCMonth()]} ${year}?`;
        items = Array.from({ length: k }, (_, i) => {
          const bps = (i - 1) * 25;
          const label = bps === 0 ? 'No change' : bps < 0 ? flat`${-bps} bps increase` : flat`${bps} bps decrease`;
          return {
            label,
            question: flat`Will the ${bank} announce a ${label.toLowerCase()} after the ${MONTHS[d.getUTCMonth()]} ${year} meeting?`,
            clause: flat`the ${bank} announces a ${label.toLowerCase()}`,
          };
        });
      } else {
        const place = pick(rng, PLACES);
        title = pick(rng, [
          flat`Will ${place} enter a recession before the end of ${year}?`,
          flat`Will ${place} inflation exceed ${randInt(rng, 2, 9)}% in ${MONTHS[d.getUTCMonth()]} ${year}?`,
        ]);
        items = [{ label: '', question: title, clause: flat`official statistics for ${place} confirm it` }];
      }
      break;
    }
    case 'tech': {
      const company = pick(rng, COMPANIES);
      tagLabels = ['Tech', 'AI', company];
      seriesKey = flat`tech:${company}`;
      if (group) {
        title = flat`Which company has the best AI model end of ${MONTHS[d.getUTCMonth()]}?`;
        items = Array.from({ length: k }, (_, i) => {
          const c = i < COMPANIES.length ? (COMPANIES[i] as string) : `${properName(rng)} Labs`;
          return {
            label: c,
            question: flat`Will ${c} have the top AI model at the end of ${MONTHS[d.getUTCMonth()]} ${year}?`,
            clause: flat`${c} ranks first on the named leaderboard`,
          };
        });
      } else {
        const product = flat`${properName(rng)} ${randInt(rng, 2, 9)}`;
        title = flat`Will ${company} release ${product} before ${when}, ${year}?`;
        items = [{ label: '', question: title, clause: flat`${company} makes ${product} publicly available before ${when}, ${year}` }];
      }
      break;
    }
    case 'culture': {
      const award = pick(rng, AWARDS);
      tagLabels = ['Culture', 'Pop Culture', rng() < 0.5 ? 'Movies' : 'Awards'];
      seriesKey = rng() < 0.5 ? 'culture:Box Office' : 'culture:Awards';
      if (group) {
        title = flat`${award} winner ${year}`;
        items = people(k).map((p) => ({
          label: p,
          question: flat`Will ${p} win ${award} at the ${year} ceremony?`,
          clause: flat`${p} is announced as the winner of ${award}`,
        }));
      } else {
        const film = flat`${properName(rng)} ${properName(rng)}`;
        const m = randInt(rng, 20, 250);
        title = flat`Will "${film}" gross more than $${m}m on its opening weekend?`;
        items = [{ label: '', question: title, clause: flat`"${film}" grosses more than $${m}m domestically on its opening weekend` }];
      }
      break;
    }
    default: {
      const place = pick(rng, PLACES);
      tagLabels = ['World', 'Geopolitics', place];
      seriesKey = 'world:Summits';
      if (group) {
        title = flat`Who will host the next ${properName(rng)} summit?`;
        items = PLACES.slice(0, k).map((p) => ({
          label: p,
          question: flat`Will ${p} host the next summit before ${when}, ${year}?`,
          clause: flat`${p} is confirmed as host`,
        }));
      } else {
        const a = personName(rng);
        title = flat`Will ${a} meet the leader of ${place} before ${when}, ${year}?`;
        items = [{ label: '', question: title, clause: flat`${a} meets the leader of ${place} in person` }];
      }
    }
  }

  const markets = items.map((it) => ({
    question: fitQuestion(it.question, rng, year),
    groupItemTitle: it.label,
    outcomes: it.outcomes ?? YES_NO,
    clause: it.clause,
  }));
  if (!group) title = (markets[0] as MarketFrame).question;
  return { title, tagLabels, seriesKey, markets };
}
