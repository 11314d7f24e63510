import { saveBlob } from '../../api/blob-result.js';
import { fetchBatchResults, fetchFileContent, type BatchOverview } from '../../api/batches-api.js';
import { useSignedIn } from '../../session-context.js';
import { useAction } from '../../hooks/use-action.js';
import { ErrorAlert } from '../../components/error-alert.js';

/**
 * A batch's result files, downloaded with the session's key in the Authorization header (never in a URL):
 * an Anthropic batch's results once it has ended, an OpenAI batch's output and error files once written.
 * The admin key reads no account's files, so the admin sees where they are but downloads nothing.
 */
export function BatchDownloads({ batch }: { batch: BatchOverview }) {
  const { client, session } = useSignedIn();
  const download = useAction(async (load: () => Promise<Blob>, fileName: string) => saveBlob(await load(), fileName));
  const files: Array<{ label: string; load: () => Promise<Blob>; fileName: string }> = [];
  if (batch.kind === 'anthropic' && batch.results_url) {
    files.push({ label: 'Results', load: () => fetchBatchResults(client, batch.id), fileName: `${batch.id}-results.jsonl` });
  }
  if (batch.output_file_id) {
    const id = batch.output_file_id;
    files.push({ label: 'Output file', load: () => fetchFileContent(client, id), fileName: `${batch.id}-output.jsonl` });
  }
  if (batch.error_file_id) {
    const id = batch.error_file_id;
    files.push({ label: 'Error file', load: () => fetchFileContent(client, id), fileName: `${batch.id}-errors.jsonl` });
  }
  if (files.length === 0) return <span class="sub">{batch.status === 'ended' ? 'No files' : 'When ended'}</span>;
  if (session.view === 'admin') {
    return <span class="sub">{files.map((file) => file.label).join(', ')} (the account's key downloads them)</span>;
  }
  return (
    <div class="batch-downloads">
      {files.map((file) => (
        <button
          key={file.label}
          type="button"
          class="button button-small"
          aria-label={`Download ${file.label.toLowerCase()} of batch ${batch.id}`}
          disabled={download.busy}
          onClick={() => void download.run(file.load, file.fileName)}
        >
          Download {file.label.toLowerCase()}
        </button>
      ))}
      <ErrorAlert error={download.error} />
    </div>
  );
}
