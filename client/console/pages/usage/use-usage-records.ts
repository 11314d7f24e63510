import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../index.js';

type UsageRecordList = components['schemas']['UsageRecordList'];

export interface RecordPages {
  records: components['schemas']['UsageRecord'][] | undefined;
  /** True when the ledger has older records than those loaded. */
  hasMore: boolean;
  loading: boolean;
  error: unknown;
  loadMore(): void;
}

/**
 * The usage records page by page: the newest page whenever `deps` change (a filter, a refresh), then older
 * pages appended by `loadMore` through the `next_before` cursor. Answers to superseded loads are dropped.
 */
export function useUsageRecords(loadPage: (before?: string) => Promise<UsageRecordList>, deps: unknown[]): RecordPages {
  const [state, setState] = useState<{ records?: RecordPages['records']; nextBefore: string | null; loading: boolean; error?: unknown }>({ nextBefore: null, loading: true });
  const generation = useRef(0);
  const loadRef = useRef(loadPage);
  loadRef.current = loadPage;

  function load(before?: string) {
    const call = before === undefined ? ++generation.current : generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    loadRef.current(before).then(
      (page) => {
        if (call !== generation.current) return;
        setState((previous) => ({
          records: before === undefined ? page.data : [...(previous.records ?? []), ...page.data],
          nextBefore: page.next_before,
          loading: false,
        }));
      },
      (error: unknown) => call === generation.current && setState((previous) => ({ ...previous, loading: false, error })),
    );
  }

  // The caller names what the first page depends on.
  useEffect(() => load(), deps);

  return {
    records: state.records,
    hasMore: state.nextBefore !== null,
    loading: state.loading,
    error: state.error,
    loadMore: () => state.nextBefore !== null && load(state.nextBefore),
  };
}
