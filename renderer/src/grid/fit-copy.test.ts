import { describe, expect, it } from 'vitest';
import { toTsv } from './copy.ts';
import type { GridColumn } from './types.ts';
import { fitColumns } from './useColumnFit.ts';

type R = { id: string; v: number };
const col = (id: string, size: number, extra: Partial<GridColumn<R>> = {}): GridColumn<R> => ({
  id,
  header: id.toUpperCase(),
  size,
  cell: (r) => `${id}${r.v}`,
  ...extra,
});

describe('fitColumns', () => {
  const cols = [
    col('name', 380, { grow: true, minSize: 200 }),
    col('a', 100, { priority: 2 }),
    col('b', 100, { priority: 1 }),
    col('keep', 100),
  ];
  it('hides whole columns, lowest priority first, until the rest fit', () => {
    expect([...fitColumns(cols, {}, 600)]).toEqual([]);
    expect([...fitColumns(cols, {}, 450)]).toEqual(['b']);
    expect([...fitColumns(cols, {}, 350)]).toEqual(['b', 'a']);
    // Never the columns without a priority, even when they do not fit.
    expect([...fitColumns(cols, {}, 100)]).toEqual(['b', 'a']);
  });
  it("keeps a growing column's fitSize before showing optional columns, and hides empty columns", () => {
    const roomy = [col('name', 380, { grow: true, minSize: 200, fitSize: 300 }), ...cols.slice(1)];
    // 300 + 100 + 100 + 100: the name's room counts, so the lowest priority goes at 550.
    expect([...fitColumns(roomy, {}, 600)]).toEqual([]);
    expect([...fitColumns(roomy, {}, 550)]).toEqual(['b']);
    // Resized by the user: their width counts instead.
    expect([...fitColumns(roomy, { name: 200 }, 500)]).toEqual([]);
    let empty = true;
    const withEmpty = [...cols, col('spark', 100, { priority: 5, empty: { isEmpty: () => empty, subscribe: () => () => {} } })];
    expect([...fitColumns(withEmpty, {}, 1000)]).toEqual(['spark']);
    empty = false;
    expect([...fitColumns(withEmpty, {}, 1000)]).toEqual([]);
  });
  it("counts the user's widths", () => {
    expect([...fitColumns(cols, { keep: 260 }, 600)]).toEqual(['b']);
    // A column the user widened is hidden last.
    expect([...fitColumns(cols, { b: 150 }, 450)]).toEqual(['a']);
  });
});

describe('toTsv', () => {
  it('copies each column as text, header first, leaving out columns with no text', () => {
    const cols = [col('name', 10, { text: (r) => `N\t${r.id}` }), col('v', 10), col('badge', 10, { cell: () => ({}) as never })];
    expect(
      toTsv(cols, [
        { id: '1', v: 5 },
        { id: '2', v: 6 },
      ]),
    ).toBe('NAME\tV\nN 1\tv5\nN 2\tv6\n');
  });
});
