/**
 * Which header family verified decides the caller's dialect and limiter key: with both families
 * present, only the one that signed counts.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { l2Headers, verifyL2, type L2Request } from '../auth/l2.ts';
import { TEST_CREDS } from '../testing/l2-vectors.ts';
import { l2Identity } from './l2-identity.ts';

const OTHER = { ...TEST_CREDS, apiKey: '11111111-1111-4111-8111-111111111111', secret: 'c2VjcmV0LW9mLWFub3RoZXIta2V5LXRoYXQtaXMtMzI=' };
const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

function request(headers: Record<string, string>): FastifyRequest {
  return { method: 'GET', url: '/data/orders?next_cursor=MA==', headers: lower(headers) } as unknown as FastifyRequest;
}

const identity = l2Identity((req: L2Request) => verifyL2(TEST_CREDS, req));
const signed = (creds: typeof TEST_CREDS, family: 'POLY' | 'KUEST') =>
  l2Headers(creds, { method: 'GET', path: '/data/orders' }, { family });

describe('l2Identity', () => {
  it('names the family that signed', () => {
    expect(identity.family(request(signed(TEST_CREDS, 'POLY')))).toBe('POLY');
    expect(identity.family(request(signed(TEST_CREDS, 'KUEST')))).toBe('KUEST');
    expect(identity.family(request(signed(OTHER, 'POLY')))).toBeUndefined();
    expect(identity.family(request({}))).toBeUndefined();
  });

  it('with both families, the one that verifies decides the dialect and the key', () => {
    const kuestSigns = request({ ...signed(OTHER, 'POLY'), ...signed(TEST_CREDS, 'KUEST') });
    expect(identity.family(kuestSigns)).toBe('KUEST');
    expect(identity.verifiedKey(kuestSigns)).toBe(TEST_CREDS.apiKey);
    const polySigns = request({ ...signed(TEST_CREDS, 'POLY'), ...signed(OTHER, 'KUEST') });
    expect(identity.family(polySigns)).toBe('POLY');
    expect(identity.verifiedKey(polySigns)).toBe(TEST_CREDS.apiKey);
  });
});
