/**
 * The JSON-list file under its owners (watchlist, screens, alert rules, alerts' log): the file's
 * format, entries the item schema refuses left out, a failed write-first change that changes
 * nothing, and write-behind changes coalesced.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../testing/fixtures.ts';
import { JsonListFile, type JsonListSpec } from './json-list-file.ts';

function dir(): string {
  const d = tempDir();
  onTestFinished(d.cleanup);
  return d.dir;
}

interface Item {
  id: string;
  n?: number;
}
const SPEC: JsonListSpec<Item> = {
  name: 'list.json',
  key: 'things',
  item: z.object({ id: z.string(), n: z.number().optional() }),
  what: 'a list',
};
const read = (d: string) => JSON.parse(readFileSync(path.join(d, SPEC.name), 'utf8'));

describe('JsonListFile', () => {
  it('loads the entries the schema accepts, as the file has them, and writes `{ version, <key> }`', async () => {
    const d = dir();
    const kept = { id: 'a', n: 1, newer: { any: 'thing' } };
    writeFileSync(
      path.join(d, SPEC.name),
      JSON.stringify({ version: 1, things: [kept, { id: 2 }, null, { id: 'b', n: 'x' }, { id: 'c' }] }),
    );
    const warnings: string[] = [];
    const list = await JsonListFile.open(SPEC, { dataDir: d, log: { info() {}, warn: (m) => warnings.push(m) } });
    expect(list.items).toEqual([kept, { id: 'c' }]);
    expect(warnings).toEqual([]);
    await list.update((items) => items.filter((i) => i.id !== 'c'));
    expect(read(d)).toEqual({ version: 1, things: [kept] });
    expect(readdirSync(d)).toEqual([SPEC.name]);
  });

  it('moves a file without the list aside; a missing file is an empty list and no file', async () => {
    const d = dir();
    writeFileSync(path.join(d, SPEC.name), JSON.stringify({ version: 1, items: [] }));
    expect((await JsonListFile.open(SPEC, { dataDir: d, now: () => 7 })).items).toEqual([]);
    expect(readdirSync(d)).toEqual([`${SPEC.name}.unreadable-7`]);
    const empty = await JsonListFile.open(SPEC, { dataDir: dir() });
    expect(empty.items).toEqual([]);
    expect(existsSync(empty.file!)).toBe(false);
  });

  it('update: a failed write rejects and changes nothing; the next change goes on', async () => {
    const d = dir();
    writeFileSync(path.join(d, 'not-a-dir'), '');
    const list = await JsonListFile.open(SPEC, { dataDir: path.join(d, 'not-a-dir') });
    const seen: (readonly Item[])[] = [];
    list.onChange((items) => seen.push(items));
    await expect(list.update(() => [{ id: 'a' }])).rejects.toThrow();
    expect(list.items).toEqual([]);
    expect(seen).toEqual([]);
    const memory = await JsonListFile.open(SPEC);
    expect(await memory.update(() => [{ id: 'a' }])).toEqual([{ id: 'a' }]);
    expect(await memory.update(() => null)).toEqual([{ id: 'a' }]);
  });

  it('set and changed: kept at once, written behind in as few writes as the changes allow', async () => {
    const d = dir();
    const list = await JsonListFile.open(SPEC, { dataDir: d });
    for (let i = 0; i < 50; i++) list.set([...list.items, { id: String(i) }]);
    expect(list.items).toHaveLength(50);
    list.items[0]!.n = 5;
    list.changed();
    await list.flush();
    const body = read(d);
    expect(body.things).toHaveLength(50);
    expect(body.things[0]).toEqual({ id: '0', n: 5 });
    expect(readdirSync(d)).toEqual([SPEC.name]);
  });
});
