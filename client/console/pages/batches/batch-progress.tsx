import { formatInteger } from '../../format.js';
import type { BatchOverview } from '../../api/batches-api.js';

/**
 * How far a batch has got: a bar of the requests with an outcome, in segments by outcome (succeeded,
 * errored, canceled or expired), and the same as text beside it. The bar is a `progressbar` whose value is
 * the requests done, so a screen reader hears it without the colours.
 */
export function BatchProgress({ batch }: { batch: BatchOverview }) {
  const counts = batch.request_counts;
  const done = counts.total - counts.processing;
  const percent = counts.total === 0 ? 100 : Math.floor((done / counts.total) * 100);
  const share = (count: number) => `${counts.total === 0 ? 0 : (count / counts.total) * 100}%`;
  const text = `${formatInteger(done)} of ${formatInteger(counts.total)} done (${percent}%)`;
  return (
    <div class="batch-progress">
      <div
        class="progress-track"
        role="progressbar"
        aria-label={`Progress of batch ${batch.id}`}
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={done}
        aria-valuetext={text}
      >
        <span class="progress-part progress-succeeded" style={{ width: share(counts.succeeded) }} />
        <span class="progress-part progress-errored" style={{ width: share(counts.errored) }} />
        <span class="progress-part progress-stopped" style={{ width: share(counts.canceled + counts.expired) }} />
      </div>
      <span class="progress-text">{text}</span>
    </div>
  );
}

/** The outcomes as words: `2 succeeded · 1 errored`, leaving out those with none. */
export function BatchCounts({ batch }: { batch: BatchOverview }) {
  const counts = batch.request_counts;
  const parts = [
    [counts.succeeded, 'succeeded'],
    [counts.errored, 'errored'],
    [counts.canceled, 'canceled'],
    [counts.expired, 'expired'],
    [counts.processing, 'processing'],
  ] as const;
  const shown = parts.filter(([count]) => count > 0);
  if (shown.length === 0) return <span class="sub">No requests</span>;
  return (
    <ul class="batch-counts plain-list">
      {shown.map(([count, label]) => (
        <li key={label} class={`count-${label}`}>
          {formatInteger(count)} {label}
        </li>
      ))}
    </ul>
  );
}
