/**
 * docs/api.md and src/contract/result-names.ts are generated (scripts/api-docs.ts): these fail
 * while either differs from what the contract and docs/api-examples.md give now, and while
 * api-examples.md has a section heading that names no operation or an operation has none.
 */
import { describe, expect, it } from 'vitest';
import { opNames } from '../src/contract/routes.ts';
import { API_MD, RESULT_NAMES_TS, extractResultNames, generate, parseExamples, readCurrent } from './api-docs.ts';

const FIX = 'run `npm run docs:api` and commit the result';

describe('docs/api.md', () => {
  const { files, problems } = generate();

  it('api-examples.md has one "## <opName>" section per operation, and no other', () => {
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it(`${API_MD} is up to date with the contract and api-examples.md`, () => {
    expect(readCurrent(API_MD) === files[API_MD], `${API_MD} is out of date: ${FIX}`).toBe(true);
  });

  it(`${RESULT_NAMES_TS} is up to date with the op<Result>() declarations`, () => {
    expect(readCurrent(RESULT_NAMES_TS) === files[RESULT_NAMES_TS], `${RESULT_NAMES_TS} is out of date: ${FIX}`).toBe(true);
  });

  it('lists every operation under its own heading, with its examples', () => {
    const md = files[API_MD]!;
    for (const n of opNames) expect(md, n).toContain(`\n### ${n}\n`);
    expect(md).toContain('GET /openapi.json');
    expect(md).toContain('## IPC-only operations');
  });
});

describe('reading api-examples.md', () => {
  const known = ['a.list', 'a.get'];

  it('takes each section by its operation, fenced "#" lines included', () => {
    const text = 'Preamble.\n\n## a.list\n\nLists.\n\n```sh\n# a comment, not a heading\n## nor this\n```\n\n## a.get\n\nGets.\n';
    const r = parseExamples(text, known);
    expect(r.problems).toEqual([]);
    expect(r.sections.get('a.list')).toBe('Lists.\n\n```sh\n# a comment, not a heading\n## nor this\n```');
    expect(r.sections.get('a.get')).toBe('Gets.');
  });

  it('fails on a heading that names no operation, a second section, and an operation without one', () => {
    const r = parseExamples('## a.list\n\nx\n\n## a.lists\n\ny\n\n## a.list\n\nz\n\n# Title\n', known);
    expect(r.problems).toEqual([
      expect.stringContaining('"## a.lists" names no operation'),
      expect.stringContaining('a second section for a.list'),
      expect.stringContaining('"# Title" names no operation'),
      expect.stringContaining('no "## a.get" section'),
    ]);
  });
});

describe('result type names', () => {
  it('are read from op<Result>() declarations, nested generics and object types included', () => {
    const src = `export const x = {
      'a.list': op<Market[]>()({}),
      /** A comment. */
      'a.map': op<Record<string, Record<string, string>>>()(body),
      'a.obj': op<{
        history: PricePoint[];
      }>()({}),
    };`;
    expect(Object.fromEntries(extractResultNames([src]))).toEqual({
      'a.list': 'Market[]',
      'a.map': 'Record<string, Record<string, string>>',
      'a.obj': '{ history: PricePoint[] }',
    });
  });
});
