import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again, keeping the old data on screen until the new data arrives. */
  reload(): void;
}

/**
 * Loads data when the component mounts and whenever `deps` change. An answer that arrives after a newer
 * load started is dropped, so a quick change of filters cannot show stale data.
 */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const call = ++latest.current;
    setState((previous) => ({ data: previous.data, loading: true }));
    loadRef.current().then(
      (data) => call === latest.current && setState({ data, loading: false }),
      (error: unknown) => call === latest.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    // The caller names what the load depends on; the latest `load` is read through the ref.
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
