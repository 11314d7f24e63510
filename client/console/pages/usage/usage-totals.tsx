import type { components } from '../../../index.js';
import { formatInteger, formatUsd } from '../../format.js';
import { totalOf } from './usage-range.js';

/** The period's totals at a glance: requests, tokens, images and cost. */
export function UsageTotals({ days }: { days: components['schemas']['UsageBucket'][] }) {
  const total = totalOf(days);
  const stats = [
    { label: 'Requests', value: formatInteger(total.requests) },
    { label: 'Input tokens', value: formatInteger(total.input_tokens) },
    { label: 'Output tokens', value: formatInteger(total.output_tokens) },
    { label: 'Images', value: formatInteger(total.image_count) },
    { label: 'Cost', value: formatUsd(total.cost_usd) },
  ];
  return (
    <dl class="stats" aria-label="Totals for the period">
      {stats.map((stat) => (
        <div key={stat.label} class="card stat">
          <dt>{stat.label}</dt>
          <dd>{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
