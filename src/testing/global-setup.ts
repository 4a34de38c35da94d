/** vitest globalSetup: build out/ once before any test spawns the CLI (no two files race to build it). */
import { buildIfStale } from './built-cli.ts';

export default function setup(): void {
  buildIfStale();
}
