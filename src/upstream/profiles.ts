/**
 * Upstream profiles: where the Gamma, CLOB and Data APIs of a catalog live, and the CLOB's
 * WebSocket host (a separate host). Explicit URLs (`--gamma-url` ..., `--clob-ws-url`) override
 * the profile's.
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

/**
 * The CLOB's WebSocket host of each profile; the market channel is at `<host>/ws/market`, the user
 * channel at `<host>/ws/user`. Polymarket: docs.polymarket.com (docs/upstream/polymarket-2026.md,
 * section 5). Kuest: its own web app's default for Polygon mainnet (`wsClobUrl` in
 * kuestcom/prediction-market's runtime configuration; `-staging` for Amoy).
 */
export const WS_HOSTS = {
  polymarket: 'wss://ws-subscriptions-clob.polymarket.com',
  kuest: 'wss://ws-subscriptions-clob.kuest.com',
} as const satisfies Record<ProfileName, string>;

/**
 * The WebSocket host to use when none is given: the profile's when `clobUrl` is a profile's CLOB
 * (so `--profile kuest` gets Kuest's), otherwise the CLOB's own host with ws(s) for http(s) (a
 * `--clob-url` pointing elsewhere, such as the fake upstream, serves both on one port).
 */
export function defaultClobWsUrl(clobUrl: string): string {
  for (const name of Object.keys(PROFILES) as ProfileName[]) {
    if (PROFILES[name].clob.replace(/\/+$/, '') === clobUrl.replace(/\/+$/, '')) return WS_HOSTS[name];
  }
  return clobUrl.replace(/^http(s?):/i, 'ws$1:').replace(/\/+$/, '');
}
