/**
 * The faces load no schema compilers (face.ts): a route that declared a Fastify schema would go
 * unchecked, so it is refused at start instead.
 */
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../contract/handlers.ts';
import { silentLogger } from '../logger.ts';
import { buildFace } from './face.ts';

const dispatch = (() => {
  throw new Error('not called');
}) as unknown as Dispatch;

describe('Fastify schemas', () => {
  it('a route that declares one is refused when the face starts', async () => {
    const start = async () => {
      const app = await buildFace({
        face: 'base',
        dispatch,
        log: silentLogger,
        extend: (app) => {
          app.get('/with-schema', { schema: { querystring: { type: 'object' } } }, async () => 'unchecked');
        },
      });
      try {
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await expect(start()).rejects.toThrow(/declare no Fastify schemas/);
  });

  it('the faces themselves start without one', async () => {
    const app = await buildFace({ face: 'base', dispatch, log: silentLogger });
    // ready() resolves with the app itself, its routes in place.
    await expect(app.ready()).resolves.toBe(app);
    expect(app.hasRoute({ method: 'GET', url: '/markets' })).toBe(true);
    await app.close();
  });
});
