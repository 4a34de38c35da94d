/**
 * `marketdesk serve | sync | vacuum | demo | fake-upstream`: the headless entry point (npm run serve, ...),
 * built to out/main/cli.js so no TypeScript runner is needed at run time. The commands are in
 * main.ts, loaded only after sql.js's wasm has started compiling (store/engine/sql-wasm-module.ts): the
 * compile runs on V8's background threads while this thread loads the service's modules.
 */
import { sqlWasm } from '../store/engine/sql-wasm-module.ts';

try {
  sqlWasm();
} catch {
  // The store's loader reports an unreadable wasm file when it needs it.
}
const { main } = await import('./main.ts');
await main(process.argv.slice(2));
