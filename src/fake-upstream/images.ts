/**
 * Pictures for the fake upstream. The recorded catalog's `image`/`icon` URLs point at Polymarket's
 * S3 bucket, unreachable from tests and demos; once the server listens, the catalog's URLs are
 * rewritten to `<server>/images/<name>` (the original file name) and the server answers those
 * with a generated picture: deterministic, its colours derived from the name, its format from
 * the name's extension (`.jpg` a JPEG, `.webp` a WebP, anything else a PNG).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';

export const IMAGES_PATH = '/images/';
const NAME = /^[\w.-]{1,120}$/;

/** The local picture's name for an upstream image URL (its last path segment, made safe); undefined if none. */
export function localImageName(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  let last: string;
  try {
    last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
  const name = last.replace(/[^\w.-]+/g, '-').slice(-120);
  return NAME.test(name) && !/^\.+$/.test(name) ? name : undefined;
}

/** Rewrites `image` and `icon` of `obj` (in place) to the server's own `/images/` route. */
export function localizeImageFields(obj: Record<string, unknown>, base: string): void {
  for (const key of ['image', 'icon'] as const) {
    const name = localImageName(obj[key]);
    if (name !== undefined) obj[key] = `${base}${IMAGES_PATH}${name}`;
  }
}

export interface ImageReply {
  status: number;
  contentType: string;
  body: Buffer;
}

const cache = new Map<string, Promise<ImageReply>>();

function colour(hash: Buffer, at: number): string {
  return `rgb(${hash[at]},${hash[at + 1]},${hash[at + 2]})`;
}

async function render(name: string): Promise<ImageReply> {
  const h = createHash('sha256').update(name).digest();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="${colour(h, 0)}"/>` +
    `<circle cx="${64 + (h[6]! % 128)}" cy="${64 + (h[7]! % 128)}" r="${40 + (h[8]! % 40)}" fill="${colour(h, 3)}"/></svg>`;
  const img = sharp(Buffer.from(svg));
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'jpg' || ext === 'jpeg') return { status: 200, contentType: 'image/jpeg', body: await img.jpeg({ quality: 80 }).toBuffer() };
  if (ext === 'webp') return { status: 200, contentType: 'image/webp', body: await img.webp().toBuffer() };
  return { status: 200, contentType: 'image/png', body: await img.png().toBuffer() };
}

/** The answer to `GET /images/<name>`: the generated picture, or a JSON 404 for a bad name. */
export function imageReply(name: string): Promise<ImageReply> {
  if (!NAME.test(name) || /^\.+$/.test(name)) {
    return Promise.resolve({
      status: 404,
      contentType: 'application/json',
      body: Buffer.from('{"type":"not found error","error":"not found"}'),
    });
  }
  let p = cache.get(name);
  if (!p) {
    p = render(name);
    // A bounded memo: a synthetic catalog names 100,000 pictures.
    if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
    cache.set(name, p);
  }
  return p;
}
