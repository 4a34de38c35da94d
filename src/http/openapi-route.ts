/**
 * `GET /openapi.json` on each face: the OpenAPI 3.1 document of the face's routes, made from the
 * contract by src/contract/openapi.ts. Registered beside the contract routes, so it passes the
 * same hooks as every other GET: origin-guard.ts's Host and Origin rules, then the inbound rate
 * limiter (as a route of the face's class). Built on the first request and kept: the contract does
 * not change while the service runs, and a face that is never asked pays nothing at start.
 */
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PATH, openApiDocument } from '../contract/openapi.ts';
import type { Face } from '../contract/routes.ts';
import { PACKAGE_VERSION } from '../package-root.ts';

export function registerOpenApi(app: FastifyInstance, face: Face): void {
  let body: string | undefined;
  app.get(OPENAPI_PATH, async (_req, reply) => {
    body ??= JSON.stringify(openApiDocument(face, { version: PACKAGE_VERSION }));
    return reply.type('application/json').send(body);
  });
}
