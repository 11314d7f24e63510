import type { StreamFrame } from './stream-frame.js';

/** Each item of a stream as the frame it goes out as, one by one as they come (nothing is read ahead). */
export async function* framesOf<Item>(items: AsyncIterable<Item>, frameOf: (item: Item) => StreamFrame): AsyncGenerator<StreamFrame> {
  for await (const item of items) yield frameOf(item);
}
