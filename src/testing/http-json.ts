/**
 * Reading a service's HTTP answers in tests: a JSON GET that must succeed, and a listing paged to
 * its end 100 at a time, as a client would read it (what counts and exports are checked against).
 */
import { expect } from 'vitest';

export type Obj = Record<string, unknown> & { id: string };

export function httpJson(base: () => string) {
  async function json<T>(path: string): Promise<T> {
    const r = await fetch(base() + path);
    expect(r.status, path).toBe(200);
    return (await r.json()) as T;
  }
  async function all(path: string, query: string): Promise<Obj[]> {
    const out: Obj[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await json<Obj[]>(`${path}?${query}${query ? '&' : ''}limit=100&offset=${offset}`);
      out.push(...page);
      if (page.length < 100) return out;
    }
  }
  return { json, all };
}
