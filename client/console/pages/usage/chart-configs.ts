import type { ChartConfiguration } from 'chart.js';
import type { ChartTheme } from './chart-theme.js';

export interface Series {
  label: string;
  values: number[];
}

interface ChartOptions {
  labels: string[];
  series: Series[];
  theme: ChartTheme;
  /** Formats axis ticks and tooltip values (dollars, token counts). */
  format(value: number): string;
  /** Bars side by side along the y axis, for long category names such as model IDs. */
  horizontal?: boolean;
  /** Whole numbers only on the value axis (counts), so a chart of 3 requests has no 0.5 tick. */
  integers?: boolean;
}

/** A bar chart; several series stack, as input and output tokens add up to the whole. */
export function barChart({ labels, series, theme, format, horizontal, integers }: ChartOptions): ChartConfiguration<'bar'> {
  const valueAxis = horizontal ? 'x' : 'y';
  const stacked = series.length > 1;
  return {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((entry, index) => ({
        label: entry.label,
        data: entry.values,
        backgroundColor: theme.series[index % theme.series.length],
        borderRadius: 3,
        maxBarThickness: 36,
      })),
    },
    options: {
      ...common(theme, series.length > 1, format, valueAxis),
      indexAxis: horizontal ? 'y' : 'x',
      scales: {
        x: axis(theme, stacked, valueAxis === 'x' ? format : undefined, integers),
        y: axis(theme, stacked, valueAxis === 'y' ? format : undefined, integers),
      },
    },
  };
}

/** A line chart over days, for amounts that read better as a trend (cost). */
export function lineChart({ labels, series, theme, format }: ChartOptions): ChartConfiguration<'line'> {
  return {
    type: 'line',
    data: {
      labels,
      datasets: series.map((entry, index) => ({
        label: entry.label,
        data: entry.values,
        borderColor: theme.series[(index + 2) % theme.series.length],
        backgroundColor: theme.series[(index + 2) % theme.series.length],
        pointRadius: labels.length > 31 ? 0 : 3,
      })),
    },
    options: {
      ...common(theme, series.length > 1, format, 'y'),
      scales: { x: axis(theme, false), y: axis(theme, false, format) },
    },
  };
}

function common(theme: ChartTheme, legend: boolean, format: (value: number) => string, valueAxis: 'x' | 'y') {
  return {
    responsive: true,
    maintainAspectRatio: false,
    // The data is already there when a chart draws; an animation only delays reading it.
    animation: false as const,
    plugins: {
      legend: { display: legend, labels: { color: theme.text, boxWidth: 12 } },
      tooltip: {
        callbacks: {
          label: (item: { dataset: { label?: string }; parsed: { x: number | null; y: number | null } }) =>
            `${item.dataset.label ?? ''}: ${format(item.parsed[valueAxis] ?? 0)}`,
        },
      },
    },
  };
}

function axis(theme: ChartTheme, stacked: boolean, format?: (value: number) => string, integers = false) {
  return {
    stacked,
    beginAtZero: true,
    grid: { color: theme.grid, display: format !== undefined },
    ticks: {
      color: theme.text,
      ...(format ? { callback: (value: number | string) => format(Number(value)), ...(integers ? { precision: 0 } : {}) } : { autoSkip: true, maxRotation: 0 }),
    },
  };
}
