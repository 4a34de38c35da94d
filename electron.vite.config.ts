/**
 * Builds the three Electron targets without needing the Electron binary:
 *   main     main/index.ts          -> out/main/index.js     (ESM: package.json has "type": "module")
 *            main/service-worker.ts -> out/main/service-worker.js (the service core's worker thread)
 *            src/cli/cli.ts         -> out/main/cli.js       (npm run serve / sync / fake-upstream / demo)
 *            src/store/search-build-worker.ts -> out/main/search-build-worker.js (a first sync's search index)
 *   preload  main/preload/index.ts  -> out/preload/index.cjs (CommonJS: sandboxed preloads cannot be ESM)
 *   renderer renderer/index.html    -> out/renderer/         (also served in web mode at /app/)
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { rendererCspMeta } from './main/csp.ts';
import { STREAM_PATH } from './src/contract/push.ts';
import { pathPrefixes } from './src/contract/routes.ts';
import { DEFAULT_BASE_PORT } from './src/contract/ports.ts';

const root = import.meta.dirname;

/** Writes the CSP into the built index.html: file:// pages and web mode get no header from main. */
function cspMetaTag(): Plugin {
  return {
    name: 'marketdesk:csp-meta',
    apply: 'build',
    transformIndexHtml() {
      return [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: rendererCspMeta() },
          injectTo: 'head-prepend',
        },
      ];
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Bundled, not loaded from node_modules at run time: Node's loader resolved and compiled their
      // hundreds of small CommonJS files one by one, about 60 ms of a 500 ms start. sharp (native)
      // and sql.js (its wasm file is read from the package) stay external.
      externalizeDeps: { exclude: ['fastify', '@fastify/static', 'zod', 'lru-cache'] },
      rolldownOptions: {
        // The service core runs in a worker thread: a second entry beside the main process. The
        // headless CLI (npm run serve / sync / fake-upstream) is a third, so no TypeScript runner
        // is needed at run time.
        input: {
          index: resolve(root, 'main/index.ts'),
          'service-worker': resolve(root, 'main/service-worker.ts'),
          cli: resolve(root, 'src/cli/cli.ts'),
          // The search index of a first sync, built on the other core (src/store/search-build.ts).
          'search-build-worker': resolve(root, 'src/store/search-build-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload can require only `electron`: bundle everything else in.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    // Relative asset URLs so the same build works from file:// and under /app/ in web mode.
    base: './',
    // JSX through Vite 8's built-in oxc transform (no React plugin, so no fast refresh).
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    plugins: [cspMetaTag()],
    server: {
      // `electron-vite dev` in a browser tab: send API calls (and the push stream) to a running
      // `npm run serve`, whatever routes the contract gives the base face.
      proxy: Object.fromEntries(
        [...pathPrefixes('base'), STREAM_PATH, '/openapi.json'].map((p) => [p, `http://127.0.0.1:${DEFAULT_BASE_PORT}`]),
      ),
    },
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      // Every asset a file of its own: the CSP's `img-src 'self'` allows no data: URLs.
      assetsInlineLimit: 0,
      rolldownOptions: {
        input: { index: resolve(root, 'renderer/index.html') },
        // React libraries mark modules "use client"; meaningless in a client-only bundle.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  },
});
