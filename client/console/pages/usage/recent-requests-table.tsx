import type { components } from '../../../index.js';
import { TableScroll } from '../../components/table-scroll.js';
import { formatInteger, formatLatency, formatMilliseconds, formatUsd } from '../../format.js';

type UsageRecord = components['schemas']['UsageRecord'];

interface RecentRequestsTableProps {
  records: UsageRecord[];
  /** Account names by ID: adds an Account column (the admin viewing every account). */
  accountNames?: Map<string, string>;
}

/** One row per request, newest first: the text view of everything the charts draw. */
export function RecentRequestsTable({ records, accountNames }: RecentRequestsTableProps) {
  return (
    <TableScroll label="Recent requests">
      <table class="table table-compact">
        <caption class="visually-hidden">Recent requests, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            {accountNames && <th scope="col">Account</th>}
            <th scope="col">Model</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Status</th>
            <th scope="col" class="number">Tokens in / out</th>
            <th scope="col" class="number">Cost</th>
            <th scope="col" class="number">Latency</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              <td class="nowrap">
                <time dateTime={new Date(record.created_at).toISOString()}>{formatMilliseconds(record.created_at)}</time>
              </td>
              {accountNames && <td>{accountNames.get(record.account_id) ?? record.account_id}</td>}
              <td>{record.model ?? '—'}</td>
              <td class="nowrap">
                <code>{record.endpoint}</code>
              </td>
              <td>
                <span
                  class={record.status < 400 ? 'status status-ok' : 'status status-error'}
                  title={record.completed ? undefined : 'The client left before the answer was complete'}
                >
                  {record.status}
                </span>
              </td>
              <td class="number nowrap">
                <Tokens record={record} />
              </td>
              <td class="number nowrap">
                {formatUsd(record.cost_usd)}
                <PriceFacts record={record} />
              </td>
              <td class="number nowrap">{formatLatency(record.latency_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Tokens({ record }: { record: UsageRecord }) {
  const tokens = `${formatInteger(record.input_tokens)} / ${formatInteger(record.output_tokens)}`;
  return (
    <>
      {record.estimated ? <abbr title="Estimated by the gateway">≈ {tokens}</abbr> : tokens}
      {record.image_count > 0 && <span class="sub"> · {formatInteger(record.image_count)} img</span>}
      {record.cache_write_input_tokens > 0 && (
        <span class="sub" title="Prompt tokens written to the provider's cache (of them, to the 1-hour cache)">
          {' '}
          · {formatInteger(record.cache_write_input_tokens)} cache write
          {record.cache_write_1h_input_tokens > 0 && ` (${formatInteger(record.cache_write_1h_input_tokens)} 1 h)`}
        </span>
      )}
    </>
  );
}

/** What the price depended on beyond the token counts: the service tier billed, batch, a long-context tier. */
function PriceFacts({ record }: { record: UsageRecord }) {
  const facts = [
    record.service_tier !== null && !record.batch && `${record.service_tier} tier`,
    record.batch && 'batch',
    record.price_tier_above_tokens > 0 && `over ${formatInteger(record.price_tier_above_tokens)} tokens`,
  ].filter((fact): fact is string => typeof fact === 'string');
  if (facts.length === 0) return null;
  return <span class="sub"> · {facts.join(' · ')}</span>;
}
