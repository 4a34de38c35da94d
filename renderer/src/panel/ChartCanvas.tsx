/**
 * uPlot on a canvas: one line per outcome (and local history before the upstream's, dashed, in
 * its outcome's colour), y in ¢ from 0 to 100, hover shows the time and each
 * value in the legend below. Colours come from panel.css's `--chart-*` variables (light and
 * dark), read again when the colour scheme changes; the width follows the panel.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmtDateTime } from '../format.ts';

const HEIGHT = 180;
const stepped = uPlot.paths.stepped?.({ align: 1 });
const COLOURS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];

function useColourScheme(): string {
  const [scheme, setScheme] = useState(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setScheme(mq.matches ? 'dark' : 'light');
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return scheme;
}

/** Per series: dashed (local history), and which outcome's colour. Absent: solid, in order. */
export interface SeriesStyle {
  dashed: boolean;
  colour: number;
}

function options(el: HTMLElement, names: readonly string[], width: number, styles?: readonly SeriesStyle[]): uPlot.Options {
  const css = getComputedStyle(el);
  const v = (name: string) => css.getPropertyValue(name).trim();
  const axis = { stroke: v('--fg-muted'), grid: { stroke: v('--border'), width: 1 }, ticks: { stroke: v('--border'), width: 1 } };
  return {
    width,
    height: HEIGHT,
    scales: { x: { time: true }, y: { range: [0, 100] } },
    series: [
      { label: 'Time', value: (_u, t) => (t == null ? '—' : fmtDateTime(new Date(t * 1000).toISOString())) },
      ...names.map((name, i) => ({
        label: name,
        stroke: v(COLOURS[(styles?.[i]?.colour ?? i) % COLOURS.length]!),
        width: 1.5,
        // Local history is a step line: a snapshot is taken on a change, so a price holds until the next.
        ...(styles?.[i]?.dashed ? { dash: [5, 4], paths: stepped } : {}),
        spanGaps: true,
        value: (_u: uPlot, y: number | null) => (y == null ? '—' : `${y.toFixed(1)}¢`),
      })),
    ],
    axes: [axis, { ...axis, size: 54, values: (_u, splits) => splits.map((s) => `${s}%`) }],
    cursor: { drag: { x: false, y: false } },
    legend: { show: true, live: true },
  };
}

export function ChartCanvas({
  names,
  data,
  styles,
}: {
  names: readonly string[];
  data: uPlot.AlignedData;
  styles?: readonly SeriesStyle[];
}) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useColourScheme();
  const key = names.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `scheme` rebuilds the plot, whose colours come from CSS that follows it.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(options(el, key.split('\u0000'), Math.max(el.clientWidth, 120), styles), data, el);
    const ro = new ResizeObserver(() => {
      const w = Math.max(el.clientWidth, 120);
      if (w !== plot.width) plot.setSize({ width: w, height: HEIGHT });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [key, data, scheme, styles]);
  return (
    <div
      ref={box}
      className="chart-box"
      data-testid="price-chart-canvas"
      data-series={names.length}
      data-points={data[0].length}
      data-local={styles?.filter((st) => st.dashed).length ?? 0}
    />
  );
}
