import type { ChartConfiguration } from 'chart.js';
import { useMemo } from 'preact/hooks';
import type { components } from '../../../index.js';
import { formatDayLabel, formatInteger, formatUsd } from '../../format.js';
import { ChartCanvas } from './chart-canvas.js';
import { barChart, lineChart } from './chart-configs.js';
import { useChartTheme } from './chart-theme.js';

type UsageBucket = components['schemas']['UsageBucket'];

interface ChartFigure {
  title: string;
  summary: string;
  config: ChartConfiguration;
}

/**
 * The usage charts: requests, tokens and cost per UTC day, then the same per model. Each is a figure whose
 * caption sums it up in words; the tables below the charts hold the numbers as text.
 */
export function UsageCharts({ days, models }: { days: UsageBucket[]; models: UsageBucket[] }) {
  const theme = useChartTheme();
  const figures = useMemo<ChartFigure[]>(() => {
    const dayLabels = days.map((bucket) => formatDayLabel(bucket.day ?? ''));
    const modelLabels = models.map((bucket) => bucket.model ?? '(unknown model)');
    const perDay = (pick: (bucket: UsageBucket) => number) => days.map(pick);
    const perModel = (pick: (bucket: UsageBucket) => number) => models.map(pick);
    return [
      {
        title: 'Requests per day',
        summary: describePeak(days, (bucket) => bucket.requests, formatInteger, 'requests', (bucket) => `on ${formatDayLabel(bucket.day ?? '')}`),
        config: barChart({ labels: dayLabels, series: [{ label: 'Requests', values: perDay((bucket) => bucket.requests) }], theme, format: formatInteger, integers: true }),
      },
      {
        title: 'Tokens per day',
        summary: describeTokens(days),
        config: barChart({
          labels: dayLabels,
          series: [
            { label: 'Input tokens', values: perDay((bucket) => bucket.input_tokens) },
            { label: 'Output tokens', values: perDay((bucket) => bucket.output_tokens) },
          ],
          theme,
          format: formatInteger,
          integers: true,
        }),
      },
      {
        title: 'Cost per day',
        summary: describePeak(days, (bucket) => bucket.cost_usd, formatUsd, 'spent', (bucket) => `on ${formatDayLabel(bucket.day ?? '')}`),
        config: lineChart({ labels: dayLabels, series: [{ label: 'Cost (USD)', values: perDay((bucket) => bucket.cost_usd) }], theme, format: formatUsd }),
      },
      {
        title: 'Requests per model',
        summary: describePeak(models, (bucket) => bucket.requests, formatInteger, 'requests', (bucket) => `for ${bucket.model ?? 'an unknown model'}`),
        config: barChart({ labels: modelLabels, series: [{ label: 'Requests', values: perModel((bucket) => bucket.requests) }], theme, format: formatInteger, horizontal: true, integers: true }),
      },
      {
        title: 'Tokens per model',
        summary: describeTokens(models),
        config: barChart({
          labels: modelLabels,
          series: [
            { label: 'Input tokens', values: perModel((bucket) => bucket.input_tokens) },
            { label: 'Output tokens', values: perModel((bucket) => bucket.output_tokens) },
          ],
          theme,
          format: formatInteger,
          horizontal: true,
          integers: true,
        }),
      },
      {
        title: 'Cost per model',
        summary: describePeak(models, (bucket) => bucket.cost_usd, formatUsd, 'spent', (bucket) => `for ${bucket.model ?? 'an unknown model'}`),
        config: barChart({ labels: modelLabels, series: [{ label: 'Cost (USD)', values: perModel((bucket) => bucket.cost_usd) }], theme, format: formatUsd, horizontal: true }),
      },
    ];
  }, [days, models, theme]);

  return (
    <div class="chart-grid">
      {figures.map((figure) => (
        <figure key={figure.title} class="card chart-card">
          <figcaption>
            <h3 class="chart-title">{figure.title}</h3>
            <p class="chart-summary">{figure.summary}</p>
          </figcaption>
          <ChartCanvas config={figure.config} summary={`${figure.title}: ${figure.summary}`} />
        </figure>
      ))}
    </div>
  );
}

/** "12 requests in all; the most on Mar 3 (5)." — the sentence a reader would take from the chart. `name`
 * says where the peak is, with its preposition. */
function describePeak(buckets: UsageBucket[], pick: (bucket: UsageBucket) => number, format: (value: number) => string, noun: string, name: (bucket: UsageBucket) => string): string {
  const total = buckets.reduce((sum, bucket) => sum + pick(bucket), 0);
  if (total === 0) return noun === 'spent' ? 'Nothing spent in this period.' : `No ${noun} in this period.`;
  const peak = buckets.reduce((best, bucket) => (pick(bucket) > pick(best) ? bucket : best));
  const amount = noun === 'spent' ? `${format(total)} spent in all` : `${format(total)} ${noun} in all`;
  return `${amount}; the most ${name(peak)} (${format(pick(peak))}).`;
}

function describeTokens(buckets: UsageBucket[]): string {
  const input = buckets.reduce((sum, bucket) => sum + bucket.input_tokens, 0);
  const output = buckets.reduce((sum, bucket) => sum + bucket.output_tokens, 0);
  if (input + output === 0) return 'No tokens in this period.';
  return `${formatInteger(input)} input and ${formatInteger(output)} output tokens in all.`;
}
