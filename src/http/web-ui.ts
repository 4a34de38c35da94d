/**
 * Web mode: the same renderer the desktop app shows, served by the base face at /app/.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../package-root.ts';
import { loopbackRequest } from './write-guard.ts';
import { TOKEN_META } from '../contract/local-api-ops.ts';

export const DEFAULT_WEB_ROOT = path.join(PACKAGE_ROOT, 'out', 'renderer');

/**
 * The CSP of the renderer in web mode (main/csp.ts sends Electron's). Images: only this origin,
 * which serves every market and event icon from the service's cache (`/icons/:kind/:id`).
 */
export const WEB_UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's own meta tag that hands the web UI the local API token (renderer/src/api.ts reads it). */

/**
 * The page, with the local API token in a meta tag so its writes carry it (write-guard.ts). Only
 * to a request from this machine naming a loopback host: a LAN peer of a `--host 0.0.0.0` face
 * gets the page without it. Other sites cannot read it: origin-guard.ts refuses their fetches,
 * frame-ancestors their frames, and the Host check a rebound name.
 */
async function sendPage(root: string, token: string | undefined, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  let html = await readFile(path.join(root, 'index.html'), 'utf8');
  if (token !== undefined && loopbackRequest(req)) {
    html = html.replace('</head>', `<meta name="${TOKEN_META}" content="${token}">\n</head>`);
  }
  reply.header('content-security-policy', WEB_UI_CSP).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  return reply.type('text/html; charset=utf-8').send(html);
}

export async function registerWebUi(app: FastifyInstance, root = DEFAULT_WEB_ROOT, apiToken?: string): Promise<void> {
  if (!existsSync(path.join(root, 'index.html'))) {
    app.get('/app/*', async (_req, reply) =>
      reply.code(404).type('text/plain').send('The web UI is not built. Run "npm run build" (npm run serve does it for you).\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/app/',
    index: ['index.html'],
    setHeaders: (res) => res.setHeader('content-security-policy', WEB_UI_CSP),
  });
  // Static routes rank over the plugin's `/app/*`: the page itself is sent with the token.
  app.get('/app/', (req, reply) => sendPage(root, apiToken, req, reply));
  app.get('/app/index.html', (req, reply) => sendPage(root, apiToken, req, reply));
  // `/app` -> `/app/`, so the page's relative asset paths resolve under /app/.
  app.get('/app', async (_req, reply) => reply.redirect('/app/'));
  app.get('/', async (_req, reply) => reply.redirect('/app/'));
}
