/**
 * Turns a downloaded picture into an icon: decoded with bounds (pixels, formats), oriented,
 * cropped to a small square and encoded as WebP, a few KB each.
 */
import type SharpFactory from 'sharp';

// Loaded at the first icon, not at start: its native library costs start-up 50-100 ms.
let sharpModule: Promise<typeof SharpFactory> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

export const ICON_PX = 64;
export const ICON_TYPE = 'image/webp';
/** A bigger picture is refused before it is decoded (a decompression bomb costs nothing). */
export const MAX_INPUT_PIXELS = 25_000_000;
/** Raster formats sharp may decode here; SVG is left out (a renderer on untrusted input, for an icon). */
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export class BadImageError extends Error {
  override name = 'BadImageError';
}

/** The icon's WebP bytes; throws BadImageError when the bytes are no picture we take. */
export async function toIcon(input: Uint8Array): Promise<Uint8Array> {
  const sharp = await loadSharp();
  try {
    // animated: false takes the first frame of a GIF or animated WebP.
    const img = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
    const meta = await img.metadata();
    if (!meta.format || !FORMATS.has(meta.format)) throw new BadImageError(`not an accepted image format: ${meta.format ?? 'unknown'}`);
    const out = await img.rotate().resize(ICON_PX, ICON_PX, { fit: 'cover' }).webp({ quality: 70 }).toBuffer();
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch (e) {
    if (e instanceof BadImageError) throw e;
    throw new BadImageError(`unreadable image: ${(e as Error).message}`);
  }
}
