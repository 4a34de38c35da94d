/**
 * The renderer's Content-Security-Policy, in one place. Electron sets it as a response header
 * (main/index.ts) and the renderer build also writes it into index.html as a <meta> tag,
 * because header injection is unreliable for file:// pages and the same page is served in
 * web mode. No Electron import here: electron.vite.config.ts reads it too.
 */
import { ICON_SCHEME } from '../src/contract/icon-scheme.ts';

const directives = (dev: boolean): string[] => [
  "default-src 'none'",
  "script-src 'self'",
  // Vite's dev server injects CSS through <style> elements; the built app only links files.
  dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
  // Pictures come only from the service's icon cache (src/icons/): the desktop app's privileged
  // scheme (main/icon-protocol.ts), or `/icons/...` on the page's own origin in web mode (whose
  // header, src/http/web-ui.ts, narrows this to 'self'). No CDN, no data: URLs; trader avatars
  // show initials.
  `img-src 'self' ${ICON_SCHEME}:`,
  "font-src 'self'",
  // Web mode fetches the API from the same origin; the dev server also needs its HMR socket.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
];

/** Policy for the <meta> tag (frame-ancestors is ignored there, so it is left out). */
export function rendererCspMeta(): string {
  return directives(false).join('; ');
}

/** Policy for response headers. */
export function rendererCspHeader(dev: boolean): string {
  return [...directives(dev), "frame-ancestors 'none'"].join('; ');
}
