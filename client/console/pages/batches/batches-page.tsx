import { fetchBatches } from '../../api/batches-api.js';
import { AccountFilter, useAccountChoice } from '../../components/account-filter.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { useSignedIn } from '../../session-context.js';
import { BatchTable } from './batch-table.js';
import { useBatchList } from './use-batch-list.js';
import './batches.css';

/**
 * The batches of the account (Anthropic Message Batches and OpenAI batches in one table), or for the admin of
 * every account, with their progress, outcomes and result files; running ones update by themselves.
 */
export function BatchesPage() {
  const { client, session } = useSignedIn();
  const admin = session.view === 'admin';
  const accountChoice = useAccountChoice(client, admin);
  const { accountId, accounts, accountNames } = accountChoice;
  const list = useBatchList((after) => fetchBatches(client, session.view, accountId, after), [client, accountId]);

  return (
    <Page
      title="Batches"
      intro={
        admin
          ? "Batch jobs of every account, or of the one you pick. Their result files are the account's: download them with one of its keys."
          : 'Batch jobs of your account, made with the Anthropic Message Batches or OpenAI Batch API. Running ones update by themselves.'
      }
    >
      <div class="toolbar">
        {admin && <AccountFilter choice={accountChoice} />}
        <div class="toolbar-buttons">
          <button type="button" class="button" onClick={list.reload}>
            Refresh
          </button>
        </div>
      </div>
      <ErrorAlert error={list.error ?? accounts.error} />
      {list.loading ? <Loading label="Loading batches…" /> : <p class="visually-hidden" role="status">Batches loaded.</p>}
      {list.batches !== undefined && list.batches.length === 0 && (
        <p class="empty">
          No batches yet. Create one with <code>POST /v1/messages/batches</code> (Anthropic SDK: <code>messages.batches.create</code>); it shows here with its progress.
        </p>
      )}
      {list.batches !== undefined && list.batches.length > 0 && <BatchTable batches={list.batches} accountNames={accountNames} />}
      {list.hasMore && (
        <button type="button" class="button load-more" onClick={list.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </Page>
  );
}
