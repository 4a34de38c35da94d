/** Links out of the app: Electron turns window.open into shell.openExternal; a browser opens a tab. */
import type { ReactNode } from 'react';

export function isUrl(s: unknown): s is string {
  return typeof s === 'string' && /^https?:\/\/\S+$/.test(s);
}

export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className="link">
      {children}
    </a>
  );
}
