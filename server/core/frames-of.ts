import type { StreamFrame } from './stream-frame.js';

/**
 * Each item of a stream as the frame it goes out as, one by one as they come (nothing is read ahead).
 * An iterator of its own rather than an async generator: every frame of every stream passes here, and a
 * generator's extra promises and turns per item are work for nothing (bench/README.md, async stages).
 * As a generator's `for await` would, it closes the items when it is closed early or `frameOf` throws.
 */
export function framesOf<Item, Data>(items: AsyncIterable<Item>, frameOf: (item: Item) => StreamFrame<Data>): AsyncIterable<StreamFrame<Data>> {
  return {
    [Symbol.asyncIterator]: () => {
      const source = items[Symbol.asyncIterator]();
      const close = async (): Promise<IteratorReturnResult<undefined>> => {
        await source.return?.();
        return { done: true, value: undefined };
      };
      return {
        next: () =>
          source.next().then((result): IteratorResult<StreamFrame<Data>, undefined> | Promise<IteratorResult<StreamFrame<Data>, undefined>> => {
            if (result.done) return { done: true, value: undefined };
            try {
              return { done: false, value: frameOf(result.value) };
            } catch (error) {
              const rethrow = () => Promise.reject(error);
              return close().then(rethrow, rethrow);
            }
          }),
        return: close,
      };
    },
  };
}
