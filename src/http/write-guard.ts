/**
 * Writes over HTTP (issue 16): every contract operation `isLocalWrite` marks (the watchlist's
 * POST and DELETE today, alerts and screens later) passes three more checks than a read, in one
 * onRequest hook registered after origin-guard.ts's and before the rate limiter, so a refused
 * write changes nothing and is never counted:
 *
 * - `Host` names this machine's loopback: `localhost`, `127.x.x.x` or `[::1]`, whatever `--host`
 *   says. DNS rebinding needs a name the attacker controls, so it fails here even if the page
 *   somehow had the token; so does a write sent to a `--host 0.0.0.0` face by its LAN address.
 * - `Origin`, when sent, is the face's own (the web UI's page) or one given with
 *   `--allow-origin`: no page of another site may write, token or not. Scripts send none.
 * - `X-Marketdesk-Token` holds the local API token (api-token.ts), compared in constant time.
 *
 * Reads stay open: they pass origin-guard.ts's rules only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';
import { tokenMatches } from '../service/api-token.ts';
import { hostHeaderName } from '../contract/origins.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a contract operation that changes the user's state (routes.ts isLocalWrite). */
    localWrite?: boolean;
  }
}

export interface WriteGuardOptions {
  /** The local API token; undefined: every write is refused (no token was configured). */
  token: string | undefined;
  /** `--allow-origin` origins (normalized): pages the user named may write too, with the token. */
  allowedOrigins: readonly string[];
  /** Sends a refusal in the face's error family. */
  refuse: (reply: FastifyReply, status: number, type: string, message: string) => FastifyReply;
}

const HEADER = API_TOKEN_HEADER.toLowerCase();

/** A Host header's name (origins.ts hostHeaderName) that can only mean this machine's loopback. */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** A socket's peer on this machine (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(v4);
}

/** The request names a loopback host in `Host` (and came from this machine): the page may hold the token. */
export function loopbackRequest(req: FastifyRequest): boolean {
  const name = req.headers.host === undefined ? undefined : hostHeaderName(req.headers.host);
  return name !== undefined && isLoopbackName(name) && isLoopbackAddress(req.socket.remoteAddress);
}

export function registerWriteGuard(app: FastifyInstance, opts: WriteGuardOptions): void {
  const allowed = new Set(opts.allowedOrigins);
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.localWrite !== true) return;
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostHeaderName(host);
    if (host === undefined || name === undefined || !isLoopbackName(name)) {
      return opts.refuse(reply, 403, 'forbidden', 'host not allowed: a write must name localhost, 127.0.0.1 or [::1] in Host');
    }
    const origin = req.headers.origin?.toLowerCase();
    if (origin !== undefined && origin !== `http://${host.toLowerCase()}` && !allowed.has(origin)) {
      return opts.refuse(reply, 403, 'forbidden', 'cross-site write refused');
    }
    const sent = req.headers[HEADER];
    if (sent === undefined || sent === '') {
      return opts.refuse(reply, 401, 'unauthorized', `missing ${API_TOKEN_HEADER} header: a write needs the local API token`);
    }
    if (typeof sent !== 'string' || opts.token === undefined || !tokenMatches(sent, opts.token)) {
      return opts.refuse(reply, 401, 'unauthorized', `wrong ${API_TOKEN_HEADER} header`);
    }
  });
}
