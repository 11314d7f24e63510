import { useId, useMemo, useState } from 'preact/hooks';
import { saveBlob } from '../../api/blob-result.js';
import { fetchUsageCsv, fetchUsageRecords, fetchUsageReport, type UsageFilter } from '../../api/usage-api.js';
import { AccountFilter, useAccountChoice } from '../../components/account-filter.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { formatSeconds, isoDate } from '../../format.js';
import { useAction } from '../../hooks/use-action.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';
import { ModelUsageTable } from './model-usage-table.js';
import { RecentRequestsTable } from './recent-requests-table.js';
import { UsageCharts } from './usage-charts.js';
import { daysSince, fillDays, rangeChoices, rangeStart, type RangeDays } from './usage-range.js';
import { UsageTotals } from './usage-totals.js';
import { useUsageRecords } from './use-usage-records.js';
import './usage.css';

/** Usage over a period: totals, charts per day and per model, the recent requests, and a CSV export. */
export function UsagePage() {
  const { client, session } = useSignedIn();
  const admin = session.view === 'admin';
  const [rangeDays, setRangeDays] = useState<RangeDays>(7);
  const accountChoice = useAccountChoice(client, admin);
  const { accountId, accounts, accountNames } = accountChoice;
  // Bumped by Refresh: a new `from` (today may have moved on) and every list loaded again.
  const [refreshes, setRefreshes] = useState(0);
  const filter = useMemo<UsageFilter>(() => ({ from: rangeStart(rangeDays), ...(accountId ? { account_id: accountId } : {}) }), [rangeDays, accountId, refreshes]);
  const view = session.view;

  const byDay = useResource(() => fetchUsageReport(client, view, filter, 'day'), [filter]);
  const byModel = useResource(() => fetchUsageReport(client, view, filter, 'model'), [filter]);
  const records = useUsageRecords((before) => fetchUsageRecords(client, view, filter, before), [filter]);
  // Where retention's horizon is: rows before it are deleted, their totals kept.
  const recordsSince = byDay.data?.records_since;
  const days = useMemo(() => (byDay.data ? fillDays(byDay.data.data, daysSince(filter.from)) : undefined), [byDay.data, filter]);
  const exportCsv = useAction(async () => saveBlob(await fetchUsageCsv(client, view, filter), `usage-${isoDate()}.csv`));

  const rangeId = useId();
  const loading = byDay.loading || byModel.loading || records.loading;

  return (
    <Page
      title="Usage"
      intro={admin ? 'Requests, tokens and cost of every account, or of the one you pick. Days are UTC days.' : 'Requests, tokens and cost of your account. Days are UTC days.'}
    >
      <div class="toolbar">
        <div class="field field-inline">
          <label for={rangeId}>Period</label>
          <select id={rangeId} value={rangeDays} onChange={(event) => setRangeDays(Number(event.currentTarget.value) as RangeDays)}>
            {rangeChoices.map((choice) => (
              <option key={choice} value={choice}>
                Last {choice} days
              </option>
            ))}
          </select>
        </div>
        {admin && <AccountFilter choice={accountChoice} />}
        <div class="toolbar-buttons">
          <button type="button" class="button" onClick={() => setRefreshes((count) => count + 1)}>
            Refresh
          </button>
          <button type="button" class="button" onClick={() => void exportCsv.run()} disabled={exportCsv.busy}>
            {exportCsv.busy ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </div>
      <ErrorAlert error={byDay.error ?? byModel.error ?? accounts.error ?? exportCsv.error} />
      {recordsSince !== null && recordsSince !== undefined && (
        <p class="hint records-since">
          Requests before {formatSeconds(recordsSince)} are in the totals and charts, but their rows are deleted (the ledger keeps them for{' '}
          <code>ledger.retention_days</code>): the recent requests and the CSV start there.
        </p>
      )}
      {loading ? <Loading label="Loading usage…" /> : <p class="visually-hidden" role="status">Usage loaded.</p>}

      {days && <UsageTotals days={days} />}
      {days && byModel.data && <UsageCharts days={days} models={byModel.data.data} />}

      <section>
        <h2>Per model</h2>
        {byModel.data && byModel.data.data.length === 0 ? <p class="empty">No requests in this period.</p> : <ModelUsageTable models={byModel.data?.data ?? []} />}
      </section>

      <section>
        <h2>Recent requests</h2>
        <ErrorAlert error={records.error} />
        {records.records !== undefined && records.records.length === 0 && <p class="empty">No requests in this period yet. Requests show here about a second after they finish.</p>}
        {records.records !== undefined && records.records.length > 0 && <RecentRequestsTable records={records.records} accountNames={accountNames} />}
        {records.hasMore && (
          <button type="button" class="button load-more" onClick={records.loadMore} disabled={records.loading}>
            {records.loading ? 'Loading…' : 'Load more'}
          </button>
        )}
      </section>
    </Page>
  );
}
