import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One server-sent event: its `event:` name (if any) and its `data:` payload. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Parses an upstream `text/event-stream` body with eventsource-parser as the bytes arrive, yielding each
 * event as soon as its terminating blank line has been read. Never buffers the whole stream.
 *
 * @example
 * for await (const { event, data } of readSse(response.body)) console.log(event, data);
 */
export async function* readSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => ready.push(message.event ? { event: message.event, data: message.data } : { data: message.data }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    for (const event of ready.splice(0)) yield event;
  }
  // An upstream that ends without the final blank line still meant its last event: end the open line and
  // the event. After a proper ending these are empty lines, which dispatch nothing.
  parser.feed(`${decoder.decode()}\n\n`);
  for (const event of ready.splice(0)) yield event;
}
