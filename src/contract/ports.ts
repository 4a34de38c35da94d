/**
 * The faces' default loopback ports, one place for the CLI, the desktop settings, the dev proxy
 * and the docs. `--base-port` / `--clob-port` (or the app's settings) choose others; 0 picks a
 * free one.
 */
export const DEFAULT_BASE_PORT = 7310;
export const DEFAULT_CLOB_PORT = 7311;
