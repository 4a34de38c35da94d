import { describe, expect, it } from 'vitest';
import { apiBase, toQuery } from './api.ts';

describe('renderer api client', () => {
  it('finds the API one level above the web-mode page', () => {
    expect(apiBase('http://127.0.0.1:7310/app/').href).toBe('http://127.0.0.1:7310/');
    expect(apiBase('http://127.0.0.1:7310/app/index.html').href).toBe('http://127.0.0.1:7310/');
    expect(new URL('markets?limit=50', apiBase('http://127.0.0.1:7310/app/')).href).toBe(
      'http://127.0.0.1:7310/markets?limit=50',
    );
  });

  it('encodes parameters like the HTTP face expects them', () => {
    expect(toQuery({})).toBe('');
    expect(toQuery({ limit: 50, closed: false, tag_slug: undefined, order: 'volumeNum,id' })).toBe(
      '?limit=50&closed=false&order=volumeNum%2Cid',
    );
    expect(toQuery({ id: ['1', '2'] })).toBe('?id=1&id=2');
  });
});
