/**
 * Parameter validation of the catalog routes through real HTTP: bounds, integers, booleans,
 * repeated and unknown parameters, aliases, the error bodies (spec section 7,
 * docs/architecture.md, "Decisions"), the by-id/by-slug errors, unknown routes on both faces, and hostile input.
 * Filters, sorting and shapes are in catalog-routes.test.ts.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';

type Obj = Record<string, unknown>;
type Served = Obj & { id: string };

const byNumericId = (a: string, b: string) => Number(a) - Number(b);

// Brute force over the fixtures: which ids the cache holds, in the default order (id ascending).
const MARKETS = fixtureMarkets();
const EVENTS = fixtureEvents();
const TAGS = fixtureTags();
const MARKET_IDS = [...new Set([...MARKETS.map((m) => m.id), ...EVENTS.flatMap((e) => (e.markets ?? []).map((m) => m.id))])].sort(
  byNumericId,
);
const EVENT_IDS = [...new Set([...EVENTS.map((e) => e.id), ...MARKETS.flatMap((m) => (m.events ?? []).map((e) => e.id))])].sort(
  byNumericId,
);
// Closed markets live only nested in events; a newer copy in the markets file (all open) wins.
const CLOSED_MARKET_IDS = new Set(
  EVENTS.flatMap((e) => (e.markets ?? []).filter((m) => m.closed === true && !MARKETS.some((x) => x.id === m.id)).map((m) => m.id)),
);

let s: Service;
let base: string;
// The web UI is pointed at an empty directory so the answers do not depend on whether
// `npm run build` has produced out/renderer; the built-UI case has its own test below.
const noWebUi = tempDir();

beforeAll(async () => {
  s = await startService({ urls: DEAD_UPSTREAM, offline: true, basePort: 0, clobPort: 0, webRoot: noWebUi.dir });
  base = s.baseUrl!;
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: fixtureMarkets() });
});

afterAll(async () => {
  await s?.close();
  noWebUi.cleanup();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

/** `target` is a path with its raw query string, sent as written. */
async function send(target: string, init?: RequestInit, root = base): Promise<Answer> {
  const res = await fetch(`${root}${target}`, { redirect: 'manual', ...init });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, body };
}

async function ok(target: string): Promise<Served[]> {
  const r = await send(target);
  if (r.status !== 200) expect.fail(`${target} -> ${r.status} ${r.text.slice(0, 300)}`);
  expect(r.contentType).toMatch(/^application\/json/);
  expect(Array.isArray(r.body)).toBe(true);
  return r.body as Served[];
}

const ids = (items: Served[]) => items.map((i) => i.id);

/** A catalog bad request: 400, JSON, exactly {type:"bad request", error}, the message naming `param`. */
async function expectBad(target: string, param: string, exact?: string): Promise<string> {
  const r = await send(target);
  expect(r.status, `${target} -> ${r.text.slice(0, 200)}`).toBe(400);
  expect(r.contentType).toMatch(/^application\/json/);
  expect(r.body).toBeTypeOf('object');
  const body = r.body as Obj;
  expect(Object.keys(body).sort(), target).toEqual(['error', 'type']);
  expect(body.type).toBe('bad request');
  expect(body.error).toBeTypeOf('string');
  const esc = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(String(body.error), target).toMatch(new RegExp(`(^|[^A-Za-z_])${esc}([^A-Za-z_]|$)`));
  if (exact !== undefined) expect(body.error).toBe(exact);
  return String(body.error);
}

async function expectNotFound(target: string, error: string, root = base): Promise<void> {
  const r = await send(target, undefined, root);
  expect(r.status, target).toBe(404);
  expect(r.contentType).toMatch(/^application\/json/);
  expect(r.body, target).toEqual({ type: 'not found error', error });
}

const LISTS = [
  { path: '/markets', all: MARKET_IDS },
  { path: '/events', all: EVENT_IDS },
] as const;

describe('limit', () => {
  for (const { path: p, all } of LISTS) {
    it(`${p}: no limit gives the default 20`, async () => {
      expect(ids(await ok(p))).toEqual(all.slice(0, 20));
    });

    it(`${p}?limit=0 -> 400 naming limit and its bounds`, async () => {
      const msg = await expectBad(`${p}?limit=0`, 'limit');
      expect(msg).toMatch(/\b1\b/);
      expect(msg).toMatch(/\b100\b/);
    });

    it(`${p}?limit=1 -> the first item`, async () => {
      expect(ids(await ok(`${p}?limit=1`))).toEqual(all.slice(0, 1));
    });

    it(`${p}?limit=100 -> exactly 100 items`, async () => {
      const page = await ok(`${p}?limit=100`);
      expect(page.length).toBe(100);
      expect(ids(page)).toEqual(all.slice(0, 100));
    });

    it(`${p}?limit=101 -> 400 naming limit and its bounds`, async () => {
      const msg = await expectBad(`${p}?limit=101`, 'limit');
      expect(msg).toMatch(/\b100\b/);
    });

    for (const bad of [
      '-1',
      'abc',
      '1.5',
      '1e2',
      '',
      '-0',
      '+5',
      '0x10',
      '%205',
      '5%20',
      '%EF%BC%95',
      '99999999999999999999',
      'NaN',
      'Infinity',
      '1,2',
    ]) {
      it(`${p}?limit=${bad} -> 400 naming limit`, async () => {
        await expectBad(`${p}?limit=${bad}`, 'limit');
      });
    }

    it(`${p}?limit (no value) -> 400 naming limit`, async () => {
      await expectBad(`${p}?limit`, 'limit');
    });

    it(`${p}?limit=007 is read as the decimal 7`, async () => {
      expect(ids(await ok(`${p}?limit=007`))).toEqual(all.slice(0, 7));
    });
  }
});

describe('offset', () => {
  for (const { path: p, all } of LISTS) {
    it(`${p}?offset=-1 -> 400 naming offset`, async () => {
      await expectBad(`${p}?offset=-1`, 'offset');
    });

    for (const bad of ['abc', '1.5', '1e2', '', '+1']) {
      it(`${p}?offset=${bad} -> 400 naming offset`, async () => {
        await expectBad(`${p}?offset=${bad}`, 'offset');
      });
    }

    it(`${p}?offset=0 is the same as no offset`, async () => {
      expect(ids(await ok(`${p}?offset=0&limit=30`))).toEqual(ids(await ok(`${p}?limit=30`)));
    });

    it(`${p}: offset pages follow each other`, async () => {
      expect(ids(await ok(`${p}?offset=17&limit=9`))).toEqual(all.slice(17, 26));
      expect(ids(await ok(`${p}?offset=${all.length - 1}&limit=5`))).toEqual(all.slice(-1));
    });

    it(`${p}: an offset at or past the end -> []`, async () => {
      expect(await ok(`${p}?offset=${all.length}`)).toEqual([]);
      expect(await ok(`${p}?offset=1000000`)).toEqual([]);
      expect(await ok(`${p}?offset=999999999999`)).toEqual([]);
    });
  }
});

describe('booleans', () => {
  for (const { path: p } of LISTS) {
    for (const name of ['active', 'closed', 'archived', 'ascending']) {
      it(`${p}?${name}: true/false/1/0 accepted, 1 = true, 0 = false`, async () => {
        const sort = name === 'ascending' ? '&order=volume' : '';
        const t = ids(await ok(`${p}?${name}=true${sort}&limit=100`));
        const f = ids(await ok(`${p}?${name}=false${sort}&limit=100`));
        expect(ids(await ok(`${p}?${name}=1${sort}&limit=100`))).toEqual(t);
        expect(ids(await ok(`${p}?${name}=0${sort}&limit=100`))).toEqual(f);
      });

      for (const bad of ['yes', 'no', 'TRUE', 'True', 'FALSE', '', '2', '-1', 'on', 'null', 't', '%20true']) {
        it(`${p}?${name}=${bad} -> 400 naming ${name}`, async () => {
          await expectBad(`${p}?${name}=${bad}`, name, `${name} must be true or false`);
        });
      }
    }
  }

  it('/markets?closed=true keeps only closed markets, closed=0 only open ones', async () => {
    const closed = await ok('/markets?closed=true&limit=100');
    expect(ids(closed)).toEqual([...CLOSED_MARKET_IDS].sort(byNumericId));
    const open = await ok('/markets?closed=0&limit=100');
    expect(open.every((m) => m.closed === false)).toBe(true);
  });
});

describe('integer filters', () => {
  for (const [p, name] of [
    ['/markets', 'tag_id'],
    ['/markets', 'event_id'],
    ['/events', 'tag_id'],
  ] as const) {
    for (const bad of ['-1', 'abc', '1.5', '1e2', '', '0x10']) {
      it(`${p}?${name}=${bad} -> 400 naming ${name}`, async () => {
        await expectBad(`${p}?${name}=${bad}`, name);
      });
    }
  }
});

describe('repeated, aliased and unknown parameters', () => {
  for (const [p, q, name] of [
    ['/markets', 'limit=1&limit=2', 'limit'],
    ['/markets', 'limit=1&limit=1', 'limit'],
    ['/markets', 'offset=0&offset=5', 'offset'],
    ['/markets', 'closed=true&closed=false', 'closed'],
    ['/markets', 'order=id&order=volume', 'order'],
    ['/markets', 'tag=politics&tag=politics', 'tag'],
    ['/markets', 'condition_id=0x1&condition_id=0x2', 'condition_id'],
    ['/events', 'limit=1&limit=2', 'limit'],
    ['/events', 'ascending=true&ascending=true', 'ascending'],
    ['/events', 'series_slug=a&series_slug=b', 'series_slug'],
  ] as const) {
    it(`${p}?${q} -> 400 naming ${name}`, async () => {
      await expectBad(`${p}?${q}`, name);
    });
  }

  it('eventSlug and event_slug disagreeing -> 400 naming both', async () => {
    const msg = await expectBad('/markets?event_slug=a&eventSlug=b', 'event_slug');
    expect(msg).toMatch(/eventSlug/);
  });

  it('conditionId and condition_id disagreeing -> 400 naming both', async () => {
    const msg = await expectBad('/markets?conditionId=0x1&condition_id=0x2', 'conditionId');
    expect(msg).toMatch(/condition_id/);
  });

  it('an alias is validated like its parameter (too long)', async () => {
    await expectBad(`/markets?eventSlug=${'x'.repeat(501)}`, 'eventSlug');
    await expectBad(`/markets?condition_id=${'x'.repeat(501)}`, 'condition_id');
  });

  for (const { path: p } of LISTS) {
    it(`${p}: unknown parameters are ignored (same answer as without)`, async () => {
      const want = ids(await ok(`${p}?limit=30&offset=3`));
      for (const extra of [
        'foo=bar',
        'foo=',
        'foo',
        'Limit=0',
        'LIMIT=abc',
        'limit[]=0',
        'limit.x=1',
        '__proto__=1',
        'constructor=x',
        'toString=1',
        'hasOwnProperty=1',
        'valueOf=x',
        '%=1',
        // (`id` is Gamma's id list, a known parameter: `id=abc` is a 400, see gamma-params.test.ts.)
        'q=x',
        'page=0',
        'tag_ids=1',
      ]) {
        expect(ids(await ok(`${p}?limit=30&${extra}&offset=3`)), extra).toEqual(want);
      }
    });
  }

  it('unknown parameters are ignored on by-id routes too', async () => {
    const id = MARKET_IDS[0]!;
    const plain = await send(`/markets/${id}`);
    expect(plain.status).toBe(200);
    expect((await send(`/markets/${id}?foo=bar&limit=abc`)).body).toEqual(plain.body);
  });
});

describe('order', () => {
  for (const [path, bad] of [
    ['/markets', 'volume_24hr'],
    ['/markets', 'nope'],
    ['/markets', 'id,nope'],
    ['/markets', 'ID'],
    ['/markets', 'title'],
    ['/markets', 'volume,'],
    ['/markets', ',,,'],
    ['/events', 'volume_24hr'],
    ['/events', 'question'],
    ['/events', 'volumeNum'],
    ['/events', 'title;drop table events'],
    // The moves' orders: exact names only, and events have no spread.
    ['/markets', 'Chance'],
    ['/markets', 'oneDayPriceChangeAbs'],
    ['/markets', 'chance,nope'],
    ['/events', 'spread'],
    ['/events', 'onedaypricechange'],
  ] as const) {
    it(`${path}?order=${bad} -> 400 order fields are not valid`, async () => {
      const r = await send(`${path}?order=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.contentType).toMatch(/^application\/json/);
      expect(r.body).toEqual({ type: 'bad request', error: 'order fields are not valid' });
    });
  }
});

describe('GET /tags bounds', () => {
  it('limit 1 and 1000 are accepted; 0, 1001, -1, 1.5, abc, empty are 400 naming limit', async () => {
    expect((await ok('/tags?limit=1')).length).toBe(1);
    expect((await ok('/tags?limit=1000')).length).toBe(new Set([...TAGS, ...EVENTS.flatMap((e) => e.tags ?? [])].map((t) => t.id)).size);
    for (const bad of ['0', '1001', '-1', '1.5', 'abc', '', '1e2']) {
      const r = await send(`/tags?limit=${bad}`);
      expect(r.status, `limit=${bad}`).toBe(400);
      expect(Object.keys(r.body as Obj).sort()).toEqual(['error', 'type']);
      expect((r.body as Obj).type).toBe('bad request');
      expect(String((r.body as Obj).error)).toMatch(/\blimit\b/);
    }
    for (const bad of ['-1', 'x', '']) {
      const r = await send(`/tags?offset=${bad}`);
      expect(r.status, `offset=${bad}`).toBe(400);
      expect((r.body as Obj).type).toBe('bad request');
      expect(String((r.body as Obj).error)).toMatch(/\boffset\b/);
    }
  });
});

describe('by-id and by-slug errors', () => {
  for (const kind of ['markets', 'events', 'tags']) {
    for (const bad of ['abc', '-1', '1.5', '0x1f', '1e3', '%20', '12a', '1111111111111111']) {
      it(`/${kind}/${bad} -> 400 id is invalid`, async () => {
        const r = await send(`/${kind}/${bad}`);
        expect(r.status).toBe(400);
        expect(r.contentType).toMatch(/^application\/json/);
        expect(r.body).toEqual({ type: 'bad request', error: 'id is invalid' });
      });
    }

    it(`/${kind}/<41 characters> -> 400 bad request naming id`, async () => {
      await expectBad(`/${kind}/${'x'.repeat(41)}`, 'id');
    });

    it(`/${kind}/{unknown id} -> 404 id not found`, async () => {
      await expectNotFound(`/${kind}/999999999`, 'id not found');
      await expectNotFound(`/${kind}/0`, 'id not found');
    });

    it(`/${kind}/slug/{unknown slug} -> 404 slug not found`, async () => {
      await expectNotFound(`/${kind}/slug/no-such-slug`, 'slug not found');
      await expectNotFound(`/${kind}/slug/${encodeURIComponent("' OR 1=1 --")}`, 'slug not found');
      await expectNotFound(`/${kind}/slug/%00`, 'slug not found');
    });

    it(`/${kind}/slug/<301 characters> -> 400 naming slug`, async () => {
      await expectBad(`/${kind}/slug/${'x'.repeat(301)}`, 'slug');
    });
  }

  it('known ids answer 200 (a leading zero is the same decimal id)', async () => {
    const mid = MARKET_IDS[0]!;
    expect((await send(`/markets/${mid}`)).status).toBe(200);
    expect(((await send(`/markets/0${mid}`)).body as Served).id).toBe(mid);
    expect((await send(`/events/${EVENT_IDS[0]!}`)).status).toBe(200);
    expect((await send(`/tags/${TAGS[0]!.id}`)).status).toBe(200);
  });

  it('/markets/slug/<600 characters> -> 4xx with the catalog error body', async () => {
    const r = await send(`/markets/slug/${'x'.repeat(600)}`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(Object.keys(r.body as Obj).sort()).toEqual(['error', 'type']);
    expect((r.body as Obj).type).toBe('bad request');
  });

  it('malformed percent-encoding in a path -> 400 with the catalog error body', async () => {
    for (const target of ['/markets/%', '/events/slug/%E0%A4%A', '/tags/%zz']) {
      const r = await send(target);
      expect(r.status, target).toBe(400);
      expect(r.body, target).toEqual({ type: 'bad request', error: expect.any(String) });
    }
  });
});

describe('unknown routes', () => {
  for (const target of [
    '/nope',
    '/MARKETS',
    '/markets/1/extra',
    '/markets//1',
    '/events/slug/a/b',
    '/tags/slug/a/b',
    '/public-search-x',
    '/v2/markets',
  ]) {
    it(`GET ${target} -> 404 not found`, async () => {
      await expectNotFound(target, 'not found');
    });
  }

  for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
    it(`${method} /markets -> 404 not found`, async () => {
      const r = await send('/markets', { method });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ type: 'not found error', error: 'not found' });
    });
  }

  // Not `/markets`: the clob face has the CLOB's own market listing there (clobMarkets.list).
  for (const target of ['/nope', '/series', '/events/1', '/tags']) {
    it(`clob face GET ${target} -> 404 with body {"error":"not found"} only`, async () => {
      const r = await send(target, undefined, s.clobUrl!);
      expect(r.status).toBe(404);
      expect(r.contentType).toMatch(/^application\/json/);
      expect(r.body).toEqual({ error: 'not found' });
    });
  }
});

describe('hostile input', () => {
  const NAMES = [
    'limit',
    'offset',
    'active',
    'closed',
    'archived',
    'tag',
    'tag_id',
    'tag_slug',
    'event_id',
    'event_slug',
    'eventSlug',
    'conditionId',
    'condition_id',
    'slug',
    'order',
    'ascending',
    'creator',
    'series_slug',
    'zzz',
  ];
  const VALUES = [
    '%00',
    'a%00b',
    '%C3%A9',
    '%F0%9F%92%A9',
    '%E2%80%AE',
    '%EF%BB%BF',
    '%E0%A4%A',
    '%zz',
    '%',
    '%25',
    "'%20OR%201%3D1%20--",
    '1%3B%20DROP%20TABLE%20markets',
    '%22%29%20OR%20%28%221%22%3D%221',
    ',,,',
    '%2C',
    'id%2C%2C',
    '-',
    '*',
    '%3Cscript%3E',
    '__proto__',
    'NULL',
    '0x',
    `0x${'A'.repeat(40)}`,
    'x'.repeat(499),
    'x'.repeat(600),
    '%0D%0Ax-injected%3A%201',
  ];
  const queries = NAMES.flatMap((n) => VALUES.map((v) => `${n}=${v}`)).concat([
    'order=,,,',
    'order=id,id,id',
    'order=%20',
    'order=volume%20desc',
    'order=id;',
    'limit=1&offset=1&order=closedTime&ascending=true',
    '&&&',
    '=',
    '==x',
    '&=&',
    'a=1&a=2&a=3',
    '[]=1',
    `limit=1&${'x=y&'.repeat(300)}`,
  ]);

  for (const p of ['/markets', '/events']) {
    it(`${p}: ${queries.length} odd query strings answer 2xx or 4xx with a JSON body, never 5xx`, async () => {
      expect(queries.length).toBeGreaterThan(250);
      for (const q of queries) {
        const target = `${p}?${q}`;
        const r = await send(target);
        expect(r.status, target).toBeGreaterThanOrEqual(200);
        expect(r.status, target).toBeLessThan(500);
        expect(r.contentType, target).toMatch(/^application\/json/);
        expect(r.body, `${target}: ${r.text.slice(0, 100)}`).toBeDefined();
        if (r.status < 300) {
          expect(Array.isArray(r.body), target).toBe(true);
        } else {
          expect(Object.keys(r.body as Obj).sort(), target).toEqual(['error', 'type']);
          expect((r.body as Obj).type, target).toBe('bad request');
        }
      }
    });
  }

  it('odd path segments on by-id and by-slug routes never yield 5xx', async () => {
    const segs = ["'%20OR%201%3D1%20--", '%00', '%F0%9F%92%A9', '..', '%2e%2e', '%2F', '1%3B', 'x'.repeat(300), '-0', '00000'];
    for (const kind of ['markets', 'events', 'tags']) {
      for (const seg of segs) {
        for (const target of [`/${kind}/${seg}`, `/${kind}/slug/${seg}`]) {
          const r = await send(target);
          // None of these names a cached item: a 400 or 404 with the error body, never a 5xx (nor a found item).
          expect([400, 404], `${target} -> ${r.status}`).toContain(r.status);
          expect(r.contentType, target).toMatch(/^application\/json/);
          expect(Object.keys(r.body as Obj).sort(), `${target}: ${r.text.slice(0, 100)}`).toEqual(['error', 'type']);
        }
      }
    }
  });

  it('a URL over 8 KB -> 414 with the catalog error body', async () => {
    const r = await send(`/markets?tag=${'a'.repeat(9000)}`);
    expect(r.status).toBe(414);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toEqual({ type: 'bad request', error: 'request URI too long' });
    const e = await send(`/events?${'x=1&'.repeat(2100)}`);
    expect(e.status).toBe(414);
    expect(e.body).toEqual({ type: 'bad request', error: 'request URI too long' });
  });

  it('a URL over 8 KB on the clob face -> 414 with {"error"} only', async () => {
    const r = await send(`/nope?x=${'a'.repeat(9000)}`, undefined, s.clobUrl!);
    expect(r.status).toBe(414);
    expect(r.body).toEqual({ error: 'request URI too long' });
  });

  it('a URL over 16 KB -> 4xx with the catalog error body', async () => {
    const r = await send(`/markets?tag=${'a'.repeat(20_000)}`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body).toEqual({ type: 'bad request', error: expect.any(String) });
  });
});

describe('with the web UI built', () => {
  it('catalog errors keep the spec bodies', async () => {
    const web = tempDir();
    writeFileSync(path.join(web.dir, 'index.html'), '<!doctype html><title>t</title>');
    const w = await startService({ urls: DEAD_UPSTREAM, offline: true, basePort: 0, clobPort: 0, webRoot: web.dir });
    try {
      const bad = await send('/markets?limit=0', undefined, w.baseUrl!);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ type: 'bad request', error: 'limit must be an integer between 1 and 100' });
      const order = await send('/events?order=volume_24hr', undefined, w.baseUrl!);
      expect(order.body).toEqual({ type: 'bad request', error: 'order fields are not valid' });
      const missing = await send('/markets/1', undefined, w.baseUrl!);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ type: 'not found error', error: 'id not found' });
    } finally {
      await w.close();
      web.cleanup();
    }
  });
});
