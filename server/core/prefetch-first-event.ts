/**
 * Waits for a stream's first item and returns an iterable that replays it before the rest. Handlers call
 * this before sending a 200 so that an upstream failing at once still yields a real error status: once an
 * event stream has started, errors can only be reported in-band.
 */
export async function prefetchFirstEvent<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: IteratorResult<T> | undefined = await iterator.next();
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (pending === undefined) return iterator.next();
        const first = pending;
        pending = undefined;
        return first;
      },
      return: async (value?: unknown) => {
        pending = undefined;
        return (await iterator.return?.(value)) ?? { done: true as const, value: undefined };
      },
    }),
  };
}
