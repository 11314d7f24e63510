import { useEffect, useState } from 'preact/hooks';
import type { BatchOverview } from '../../api/batches-api.js';
import { useResource } from '../../hooks/use-resource.js';

type Page = { data: BatchOverview[]; has_more: boolean; last_id: string | null };

/** How often the list is read again while a batch on it is still running. */
const pollMs = 2_000;

export interface BatchList {
  batches: BatchOverview[] | undefined;
  loading: boolean;
  error: unknown;
  hasMore: boolean;
  loadingMore: boolean;
  reload(): void;
  loadMore(): void;
}

/**
 * The newest page of batches whenever `deps` change, read again every two seconds while any of them is still
 * running (so its progress bar moves), and older pages appended by `loadMore`. Older pages are not polled:
 * they are mostly ended, and Refresh reads everything anew.
 */
export function useBatchList(loadPage: (after?: string) => Promise<Page>, deps: unknown[]): BatchList {
  const newest = useResource(() => loadPage(), deps);
  const [older, setOlder] = useState<{ pages: Page[]; loading: boolean; error?: unknown }>({ pages: [], loading: false });
  useEffect(() => setOlder({ pages: [], loading: false }), deps);

  const running = newest.data?.data.some((batch) => batch.status !== 'ended') ?? false;
  useEffect(() => {
    if (!running || newest.loading) return;
    const timer = setTimeout(newest.reload, pollMs);
    return () => clearTimeout(timer);
  }, [running, newest.loading, newest.data]);

  const last = older.pages.at(-1) ?? newest.data;
  const seen = new Set(newest.data?.data.map((batch) => batch.id));
  const batches = newest.data && [...newest.data.data, ...older.pages.flatMap((page) => page.data).filter((batch) => !seen.has(batch.id))];
  return {
    batches,
    loading: newest.loading && !newest.data,
    error: newest.error ?? older.error,
    hasMore: last?.has_more ?? false,
    loadingMore: older.loading,
    reload: () => {
      setOlder({ pages: [], loading: false });
      newest.reload();
    },
    loadMore: () => {
      if (!last?.last_id || older.loading) return;
      setOlder((previous) => ({ ...previous, loading: true, error: undefined }));
      loadPage(last.last_id).then(
        (page) => setOlder((previous) => ({ pages: [...previous.pages, page], loading: false })),
        (error: unknown) => setOlder((previous) => ({ ...previous, loading: false, error })),
      );
    },
  };
}
