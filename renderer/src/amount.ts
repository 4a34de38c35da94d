/**
 * Reading back what the grids print: "1M", "$1.2K", "42¢", "42%", "−1.5", "1,250". One parser
 * for every field a trader types a number into (the alert dialog, the screen form), so a value
 * copied from a cell is accepted wherever it is typed.
 */

/** The unit a field holds: dollars, cents (a price), percent (a chance: a Yes price in ¢ is its chance in %). */
export type Unit = '$' | '¢' | '%';

const SCALE: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, bn: 1e9, t: 1e12 };

/**
 * The number `text` says, in `unit`: a suffix scales it (k, M, B), a written unit converts it
 * ($0.42 in a ¢ field is 42; 42¢ in a $ field is 0.42; ¢ and % are the same scale). NaN when it is
 * not a number (sent as is, so the service's 400 says what is wrong); undefined when blank.
 */
export function parseAmount(text: string, unit?: Unit): number | undefined {
  let s = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  if (s === '') return undefined;
  // The grids' minus (U+2212) and the typographic dashes read as the ASCII one.
  s = s.replace(/^[\u2212\u2013\u2014]/, '-').replace(/^([+-]?)\$([\u2212\u2013\u2014])/, '-$$');
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  let typed: Unit | undefined;
  if (s.startsWith('$')) {
    typed = '$';
    s = s.slice(1);
  }
  if (s.startsWith('-') && sign === 1) {
    sign = -1;
    s = s.slice(1);
  }
  const trailing = /(¢|%|c)$/i.exec(s);
  if (trailing && !typed) {
    typed = trailing[1] === '%' ? '%' : '¢';
    s = s.slice(0, -1);
  }
  const suffix = /(bn|[kmbt])$/i.exec(s);
  let scale = 1;
  if (suffix) {
    scale = SCALE[suffix[1]!.toLowerCase()]!;
    s = s.slice(0, -suffix[1]!.length);
  }
  s = grouping(s);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(s)) return Number.NaN;
  const n = sign * Number(s) * scale;
  return convert(n, typed, unit);
}

/** "1,250,000" → "1250000"; a lone comma before one or two digits is a decimal comma ("0,5"). */
function grouping(s: string): string {
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) return s.replace(/,/g, '');
  if (/^\d+,\d{1,2}$/.test(s)) return s.replace(',', '.');
  return s;
}

function convert(n: number, from: Unit | undefined, to: Unit | undefined): number {
  if (!from || !to || from === to) return n;
  // Cents and percent are one scale (0..100); dollars a hundredth of it.
  if (from === '$') return n * 100;
  if (to === '$') return n / 100;
  return n;
}
