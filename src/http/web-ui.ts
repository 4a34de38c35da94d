/**
 * Web mode: the same renderer the desktop app shows, served by the base face at /app/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../package-root.ts';

export const DEFAULT_WEB_ROOT = path.join(PACKAGE_ROOT, 'out', 'renderer');

/**
 * The CSP of the renderer in web mode (main/csp.ts sends Electron's). Images: only this origin,
 * which serves every market and event icon from the service's cache (`/icons/:kind/:id`).
 */
export const WEB_UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export async function registerWebUi(app: FastifyInstance, root = DEFAULT_WEB_ROOT): Promise<void> {
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
  // `/app` -> `/app/`, so the page's relative asset paths resolve under /app/.
  app.get('/app', async (_req, reply) => reply.redirect('/app/'));
  app.get('/', async (_req, reply) => reply.redirect('/app/'));
}
