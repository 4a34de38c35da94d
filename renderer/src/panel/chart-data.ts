/**
 * The chart's data, as uPlot takes it: one x array (unix seconds, ascending, the union of every
 * outcome's timestamps) and one y array per outcome in ¢ (0–100), null where that outcome has
 * no point (drawn across, `spanGaps`).
 */
export interface History {
  name: string;
  history: { t: number; p: number }[];
}

export function alignHistories(outcomes: readonly History[]): [number[], ...(number | null)[][]] {
  const xs = [...new Set(outcomes.flatMap((o) => o.history.map((h) => h.t)))].filter(Number.isFinite).sort((a, b) => a - b);
  const at = new Map(xs.map((t, i) => [t, i]));
  const ys = outcomes.map((o) => {
    const y: (number | null)[] = new Array(xs.length).fill(null);
    for (const h of o.history) {
      const i = at.get(h.t);
      if (i !== undefined && Number.isFinite(h.p)) y[i] = Math.round(h.p * 1e4) / 100;
    }
    return y;
  });
  return [xs, ...ys];
}

/** Whether any outcome has a point to draw. */
export function hasHistory(outcomes: readonly History[]): boolean {
  return outcomes.some((o) => o.history.length > 0);
}
