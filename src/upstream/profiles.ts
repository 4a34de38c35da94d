/**
 * Upstream profiles: where the Gamma, CLOB and Data APIs of a catalog live. Explicit URLs
 * (`--gamma-url` ...) override the profile's.
 */
import type { UpstreamUrls } from './client.ts';

export const PROFILES = {
  polymarket: {
    gamma: 'https://gamma-api.polymarket.com',
    clob: 'https://clob.polymarket.com',
    data: 'https://data-api.polymarket.com',
  },
  // Kuest's white-label API mirrors Polymarket's hosts under its own domain.
  kuest: {
    gamma: 'https://gamma-api.kuest.com',
    clob: 'https://clob.kuest.com',
    data: 'https://data-api.kuest.com',
  },
} as const satisfies Record<string, UpstreamUrls>;

export type ProfileName = keyof typeof PROFILES;

export function isProfileName(s: string): s is ProfileName {
  return Object.hasOwn(PROFILES, s);
}

export function resolveUrls(profile: ProfileName, overrides: Partial<UpstreamUrls>): UpstreamUrls {
  return { ...PROFILES[profile], ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
}
