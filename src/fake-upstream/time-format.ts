/**
 * Gamma's timestamp formats. Go's RFC3339Nano trims trailing fractional zeros
 * ("...:24.87Z", "...:04Z"), and `closedTime`/`publishedAt` use "YYYY-MM-DD HH:MM:SS+00".
 */

const DAY_MS = 86_400_000;
/** "YYYY-MM-DD" per day number, cached: a catalog spans only a few thousand distinct days. */
const dayCache = new Map<number, string>();
function dayPrefix(day: number): string {
  let s = dayCache.get(day);
  if (s === undefined) {
    s = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, s);
  }
  return s;
}

const out = Buffer.allocUnsafe(64);

function put2(p: number, n: number): number {
  out[p] = 48 + Math.floor(n / 10);
  out[p + 1] = 48 + (n % 10);
  return p + 2;
}

/**
 * Writes "YYYY-MM-DD<sep>HH:MM:SS" then `fracDigits` fraction digits of `frac` (trailing zeros
 * trimmed, as Go's RFC3339Nano prints them) and `suffix`, and decodes once. Hand-rolled because
 * toISOString is a hot spot at 500k items, and a single decode gives a flat string (a `+` chain
 * leaves a rope of cons cells costing several times the text while the catalog holds it).
 */
function format(ms: number, sep: number, frac: number, fracDigits: number, suffix: string): string {
  const day = Math.floor(ms / DAY_MS);
  const sod = Math.floor((ms - day * DAY_MS) / 1000);
  let p = out.write(dayPrefix(day), 0, 'latin1');
  out[p++] = sep;
  p = put2(p, Math.floor(sod / 3600));
  out[p++] = 58;
  p = put2(p, Math.floor((sod % 3600) / 60));
  out[p++] = 58;
  p = put2(p, sod % 60);
  if (fracDigits > 0 && frac > 0) {
    out[p++] = 46;
    for (let k = fracDigits - 1; k >= 0; k--) {
      out[p + k] = 48 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    p += fracDigits;
    while (out[p - 1] === 48) p--;
  }
  p += out.write(suffix, p, 'latin1');
  return out.toString('latin1', 0, p);
}

/** ISO-8601 with Z and microseconds, trailing zeros trimmed. `micros` is µs since epoch. */
export function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const us = Math.floor(micros) - Math.floor(micros / 1_000_000) * 1_000_000;
  return format(ms, 84, us, 6, 'Z');
}

/** Whole-second ISO, the form Gamma uses for end dates ("2025-12-31T12:00:00Z"). */
export function isoSeconds(ms: number): string {
  return format(ms, 84, 0, 0, 'Z');
}

/** "YYYY-MM-DD HH:MM:SS+00", the odd format of market `closedTime`. */
export function spaceSeconds(ms: number): string {
  return format(ms, 32, 0, 0, '+00');
}

/** "YYYY-MM-DD HH:MM:SS.mmm+00", the format of tag `publishedAt`. */
export function spaceMillis(ms: number): string {
  return format(ms, 32, ((ms % 1000) + 1000) % 1000, 3, '+00');
}

export function isoDate(ms: number): string {
  return dayPrefix(Math.floor(ms / DAY_MS));
}

const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function digitsAt(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/**
 * Milliseconds since epoch (with sub-millisecond fraction) for any Gamma timestamp format,
 * NaN if unparseable. Date.parse drops microseconds and does not take "+00", so sorting by
 * `updatedAt` needs this. The usual "YYYY-MM-DD[T ]HH:MM:SS[.f…](Z|+00)" shapes are read
 * by hand (sorting 100k items parses 100k dates); anything else goes through the regex.
 */
export function timeKey(s: string): number {
  const n = s.length;
  if (n >= 20 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(13) === 58 && s.charCodeAt(16) === 58) {
    const sep = s.charCodeAt(10);
    if (sep === 84 || sep === 32) {
      let i = 19;
      let frac = 0;
      if (s.charCodeAt(i) === 46) {
        let scale = 100;
        i++;
        while (i < n) {
          const d = s.charCodeAt(i) - 48;
          if (d < 0 || d > 9) break;
          frac += d * scale;
          scale /= 10;
          i++;
        }
      }
      const tz = s.slice(i);
      if (tz === 'Z' || tz === '+00' || tz === '+00:00') {
        const ms = Date.UTC(
          digitsAt(s, 0, 4),
          digitsAt(s, 5, 2) - 1,
          digitsAt(s, 8, 2),
          digitsAt(s, 11, 2),
          digitsAt(s, 14, 2),
          digitsAt(s, 17, 2),
        );
        return ms + frac;
      }
    }
  }
  return timeKeySlow(s);
}

function timeKeySlow(s: string): number {
  const m = TIME_RE.exec(s);
  if (!m) return NaN;
  let ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  if (m[7]) ms += Number(`0.${m[7]}`) * 1000;
  const tz = m[8];
  if (tz && tz !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    const offMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
    ms -= sign * offMin * 60_000;
  }
  return ms;
}
