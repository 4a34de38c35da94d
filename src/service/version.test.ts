import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { VERSION } from './service.ts';

it("reports package.json's version as the service's", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(VERSION).toBe(pkg.version);
});
