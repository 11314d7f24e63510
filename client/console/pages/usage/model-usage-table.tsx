import type { components } from '../../../index.js';
import { TableScroll } from '../../components/table-scroll.js';
import { formatInteger, formatUsd } from '../../format.js';

/** The per-model numbers as text: the accessible counterpart of the per-model charts. */
export function ModelUsageTable({ models }: { models: components['schemas']['UsageBucket'][] }) {
  if (models.length === 0) return null;
  return (
    <TableScroll label="Usage per model">
      <table class="table">
        <caption>Usage per model</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" class="number">Requests</th>
            <th scope="col" class="number">Input tokens</th>
            <th scope="col" class="number">Cached input</th>
            <th scope="col" class="number">Cache writes (1 h)</th>
            <th scope="col" class="number">Output tokens</th>
            <th scope="col" class="number">Images</th>
            <th scope="col" class="number">Cost</th>
          </tr>
        </thead>
        <tbody>
          {models.map((bucket) => (
            <tr key={bucket.model ?? ''}>
              <th scope="row">{bucket.model ?? '(unknown model)'}</th>
              <td class="number">{formatInteger(bucket.requests)}</td>
              <td class="number">{formatInteger(bucket.input_tokens)}</td>
              <td class="number">{formatInteger(bucket.cached_input_tokens)}</td>
              <td class="number">
                {formatInteger(bucket.cache_write_input_tokens)} ({formatInteger(bucket.cache_write_1h_input_tokens)})
              </td>
              <td class="number">{formatInteger(bucket.output_tokens)}</td>
              <td class="number">{formatInteger(bucket.image_count)}</td>
              <td class="number">{formatUsd(bucket.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
