import type { BatchOverview } from '../../api/batches-api.js';
import { TableScroll } from '../../components/table-scroll.js';
import { formatSeconds } from '../../format.js';
import { BatchDownloads } from './batch-downloads.js';
import { BatchCounts, BatchProgress } from './batch-progress.js';

interface BatchTableProps {
  batches: BatchOverview[];
  /** Account names by ID: adds an Account column (the admin viewing every account). */
  accountNames?: Map<string, string>;
}

const kindLabels: Record<BatchOverview['kind'], string> = { anthropic: 'Anthropic', openai: 'OpenAI' };
const statusLabels: Record<BatchOverview['status'], string> = { validating: 'Validating', in_progress: 'In progress', canceling: 'Canceling', ended: 'Ended' };

/** One row per batch, newest first: its progress, outcomes, status, times and result files. */
export function BatchTable({ batches, accountNames }: BatchTableProps) {
  return (
    <TableScroll label="Batches">
      <table class="table table-compact batch-table">
        <caption class="visually-hidden">Batches, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Batch</th>
            {accountNames && <th scope="col">Account</th>}
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Requests</th>
            <th scope="col">Created</th>
            <th scope="col">Files</th>
          </tr>
        </thead>
        <tbody>
          {batches.map((batch) => (
            <tr key={batch.id}>
              <td>
                <code>{batch.id}</code>
                <span class="sub block">{kindLabels[batch.kind]}</span>
              </td>
              {accountNames && <td>{accountNames.get(batch.account_id) ?? batch.account_id}</td>}
              <td>
                <span class={batch.status === 'ended' ? 'status status-ok' : 'status status-running'}>{statusLabels[batch.status]}</span>
                {batch.ended_at !== null && (
                  <span class="sub block">
                    <time dateTime={new Date(batch.ended_at * 1000).toISOString()}>{formatSeconds(batch.ended_at)}</time>
                  </span>
                )}
              </td>
              <td>
                <BatchProgress batch={batch} />
              </td>
              <td>
                <BatchCounts batch={batch} />
              </td>
              <td class="nowrap">
                <time dateTime={new Date(batch.created_at * 1000).toISOString()}>{formatSeconds(batch.created_at)}</time>
              </td>
              <td>
                <BatchDownloads batch={batch} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
