/**
 * Trading fees as Polymarket charges them since 2026-03-31: "Fees should now be calculated using
 * the `feeSchedule` object within a market" (docs changelog; docs/upstream/polymarket-2026.md).
 *
 * A taker pays, per share, `rate × (p × (1 − p))^exponent` in collateral at the fill price p: the
 * fee is largest at 50¢ and vanishes at the edges. It is the formula of the official client's own
 * fee adjustment (`@polymarket/clob-client-v2`, fees/adjustBuyAmountForFees), which the tests
 * use as the independent model. With `takerOnly` a maker pays nothing; `rebateRate` is the share
 * of the taker fees Polymarket pays back to makers. A market whose `feesEnabled` is false, or
 * that has no schedule, charges nothing.
 *
 * Gamma sends the schedule with camelCase keys and numbers; the market WebSocket's `new_market`
 * with snake_case keys and numbers as text (`{"exponent":"1","rate":"0.07","taker_only":true,
 * "rebate_rate":"0.2"}`): both read here. Plain data (the renderer bundles it).
 */
import { num } from './market-rules.ts';

export interface FeeSchedule {
  /** Fee rate at the curve's top (p(1−p) = 1 with exponent 0). */
  rate: number;
  exponent: number;
  /** Makers pay nothing. */
  takerOnly: boolean;
  /** Share of taker fees returned to makers (0 when absent). */
  rebateRate: number;
}

export const NO_FEES: FeeSchedule = { rate: 0, exponent: 1, takerOnly: true, rebateRate: 0 };

/** The market's schedule: NO_FEES when fees are off or no schedule is given; undefined when it cannot be read. */
export function feeScheduleOf(m: { feeSchedule?: unknown; feesEnabled?: unknown }): FeeSchedule | undefined {
  if (m.feesEnabled === false) return NO_FEES;
  let s = m.feeSchedule;
  if (typeof s === 'string') {
    try {
      s = JSON.parse(s) as unknown;
    } catch {
      return undefined;
    }
  }
  if (s === undefined || s === null) return NO_FEES;
  if (typeof s !== 'object' || Array.isArray(s)) return undefined;
  const o = s as Record<string, unknown>;
  const rate = num(o['rate']);
  const exponent = num(o['exponent']);
  if (rate === undefined || exponent === undefined || rate < 0 || exponent < 0) return undefined;
  const takerOnly = o['takerOnly'] ?? o['taker_only'];
  const rebate = num(o['rebateRate'] ?? o['rebate_rate']) ?? 0;
  return { rate, exponent, takerOnly: takerOnly !== false, rebateRate: rebate };
}

/** Fee per share at fill price `price` (0..1), in collateral. */
export function feePerShare(s: FeeSchedule, price: number, role: 'taker' | 'maker' = 'taker'): number {
  if (role === 'maker' && s.takerOnly) return 0;
  if (!(price > 0 && price < 1)) return 0;
  return s.rate * (price * (1 - price)) ** s.exponent;
}

/** The fee for `shares` filled at `price`, in collateral. */
export const tradeFee = (s: FeeSchedule, price: number, shares: number, role: 'taker' | 'maker' = 'taker'): number =>
  feePerShare(s, price, role) * Math.max(0, shares);

/** One line for the market page: "Taker fee 1.0¢/share at 50¢ (4% × p(1−p)); makers pay none". */
export function describeFees(s: FeeSchedule | undefined): string {
  if (!s) return 'Fees: this market’s fee schedule could not be read.';
  if (s.rate === 0) return 'No trading fees.';
  const top = feePerShare(s, 0.5) * 100;
  const curve = s.exponent === 1 ? 'p(1−p)' : `(p(1−p))^${s.exponent}`;
  const makers = s.takerOnly
    ? s.rebateRate > 0
      ? `makers pay none, and ${pct(s.rebateRate)} of it is paid to them as rebates`
      : 'makers pay none'
    : 'makers pay it too';
  return `Taker fee ${pct(s.rate)} × ${curve}: ${top.toFixed(2)}¢ a share at 50¢; ${makers}.`;
}

const pct = (x: number) => `${Number((x * 100).toFixed(2))}%`;
