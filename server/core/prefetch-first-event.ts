/**
 * Waits for a stream's first item that counts (by default: any item) and returns an iterable that replays
 * everything read so far before the rest. Handlers call this before sending a 200 so that an upstream
 * failing early still yields a real error status, and the router can still retry it: once an event
 * stream has started, errors can only be reported in-band.
 *
 * `counts` lets bookkeeping items through without committing: a translated stream's `start` event says
 * the upstream accepted the call, not that an answer is coming (Anthropic may still send `overloaded`).
 */
export async function prefetchFirstEvent<T>(source: AsyncIterable<T>, counts: (item: T) => boolean = () => true): Promise<AsyncIterable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const pending: Array<IteratorResult<T>> = [];
  for (;;) {
    const result = await iterator.next();
    pending.push(result);
    if (result.done || counts(result.value)) break;
  }
  return {
    [Symbol.asyncIterator]: () => ({
      // Not an async function: returning the source's own promise saves a promise and two turns per item.
      next: () => {
        const replayed = pending.shift();
        return replayed ? Promise.resolve(replayed) : iterator.next();
      },
      return: async (value?: unknown) => {
        pending.length = 0;
        return (await iterator.return?.(value)) ?? { done: true as const, value: undefined };
      },
    }),
  };
}
