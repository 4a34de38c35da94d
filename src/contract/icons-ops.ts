/**
 * A market's or event's icon (issue 13): the service's cached, resized copy of its `icon` (else
 * `image`), or a neutral placeholder when none can be had. The route is routes.ts's `iconRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import { str } from './params.ts';
import type { RawBody } from './raw.ts';
import type { iconRoutes } from './routes.ts';

export { ICON_KINDS, type IconKind } from './enums.ts';

export const iconsOperations = {
  // kind and id are checked by the handler: an unknown one is the spec's 404, not a 400.
  'icons.get': op<RawBody>()({ kind: str({ required: true, maxLength: 20 }), id: str({ required: true, maxLength: 40 }) }),
} satisfies DeclsFor<typeof iconRoutes>;
