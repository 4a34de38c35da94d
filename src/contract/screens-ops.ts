/**
 * Saved screens (issue 16): named filters over the catalog, each a set of `/markets` or `/events`
 * listing parameters (screen-params.ts's `md_*` ones and Gamma's own), kept in the data dir.
 * Their routes are routes.ts's `screensRoutes`.
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import { SCREEN_KINDS, type ScreenKind } from './enums.ts';
import { str, type ParamDef } from './params.ts';
import type { screensRoutes } from './routes.ts';

export { SCREEN_KINDS, type ScreenKind } from './enums.ts';

/** A parameter's value as a query string carries it: one value, or a repeated key's values. */
export type ScreenParamValue = string | string[];

export interface Screen {
  id: string;
  name: string;
  /** Which listing it filters. */
  kind: ScreenKind;
  /** Listing parameters (no `limit`/`offset`): the query string of `/markets` or `/events`. */
  params: Record<string, ScreenParamValue>;
  /** ISO 8601. */
  createdAt: string;
}

/** A screen as the screens file keeps it (store/screens-file.ts). */
export const screenSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SCREEN_KINDS),
  params: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  createdAt: z.string(),
}) satisfies z.ZodType<Screen>;

export interface ScreenList {
  /** Oldest first: the order of the tabs. */
  screens: Screen[];
}

/** `{"name", "kind", "params"}`, checked in full by the handler (screens-handlers.ts). */
const screenBody: ParamDef<string> = { schema: z.string().max(64 * 1024), rule: 'a JSON body of at most 64 KiB' };

export const screensOperations = {
  'screens.list': op<ScreenList>()({}),
  /**
   * The JSON body's fields, or (what the renderer's client sends: its POSTs carry their parameters in
   * the query) the same as parameters, `params` as JSON text. The body's win.
   */
  'screens.create': op<Screen>()({
    body: screenBody,
    name: str({ maxLength: 200 }),
    kind: str({ maxLength: 20 }),
    params: str({ maxLength: 32 * 1024 }),
  }),
  /** A new name or new params (or both) for a saved screen; its id, kind and creation time stay. */
  'screens.update': op<Screen>()({
    id: str({ required: true, maxLength: 40 }),
    body: screenBody,
    name: str({ maxLength: 200 }),
    params: str({ maxLength: 32 * 1024 }),
  }),
  'screens.remove': op<ScreenList>()({ id: str({ required: true, maxLength: 40 }) }),
} satisfies DeclsFor<typeof screensRoutes>;
