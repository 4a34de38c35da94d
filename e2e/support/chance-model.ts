/**
 * The one chance rule, modelled for the journeys in whole millionths of a dollar (integer
 * arithmetic, halves rounded up), apart from the renderer's chance.ts: whole percent from 1% to
 * 99%, one decimal below 1% and above 99%, "<0.1%" and ">99.9%" for what rounds to the ends
 * without being them; exactly 0 and 1 read "0%" and "100%".
 */
export function chanceText(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  const k = Math.round(Math.min(Math.max(p, 0), 1) * 1e6);
  const tenths = Math.floor((k + 500) / 1000);
  if (k > 0 && tenths === 0) return '<0.1%';
  if (k < 1e6 && tenths === 1000) return '>99.9%';
  if (k > 0 && k < 1e6 && (tenths < 10 || tenths > 990)) return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
  return `${Math.floor((k + 5000) / 10000)}%`;
}

/** A price in ¢ as the panels print it, to a tenth of a cent ("29¢", "42.4¢", "0.3¢"; "0.0¢" never but "0¢"). */
export function centsText(p: number): string {
  const tenths = Math.floor((Math.round(p * 1e6) + 500) / 1000);
  const whole = Math.floor(tenths / 10);
  if (tenths > 0 && tenths < 10) return `0.${tenths}¢`;
  return tenths % 10 === 0 ? `${whole}¢` : `${whole}.${tenths % 10}¢`;
}

/**
 * A market's chance as the markets grid reads it (market-rules.ts marketLeader): the Yes
 * outcome's price, else the highest-priced outcome.
 */
export function leaderOf(names: readonly string[], prices: readonly (number | undefined)[]): { name: string; price: number } | undefined {
  const priced = names.flatMap((name, i) => (prices[i] === undefined ? [] : [{ name, price: prices[i]! }]));
  return priced.find((o) => o.name.toLowerCase() === 'yes') ?? [...priced].sort((a, b) => b.price - a.price)[0];
}
