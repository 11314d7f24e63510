import type { StreamEvent, Usage } from './types.js';

/** Passes a translated stream through unchanged, reporting its usage as it goes by (for metering and the log). */
export async function* observeUsage(events: AsyncIterable<StreamEvent>, onUsage: (usage: Usage) => void): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (event.type === 'usage') onUsage(event.usage);
    yield event;
  }
}
