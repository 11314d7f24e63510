import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SseEvent } from '../../server/providers/upstream/read-sse.js';

/**
 * Access to recorded upstream traffic: `test/fixtures/upstream-recorded/` (real recordings, see its README)
 * and `test/fixtures/upstream/` (hand-written, for cases the recordings lack). Names are `<folder>/<file>`
 * relative to either root, e.g. `anthropic-messages/stream-text.chunks.txt`.
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const roots = [join(repoRoot, 'test', 'fixtures', 'upstream-recorded'), join(repoRoot, 'test', 'fixtures', 'upstream')];

export function fixturePath(name: string): string {
  for (const root of roots) {
    const path = join(root, name);
    try {
      readFileSync(path);
      return path;
    } catch {
      // try the next root
    }
  }
  throw new Error(`no upstream fixture named ${name} in ${roots.join(' or ')}`);
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as T;
}

/** The event payloads of a `.chunks.txt` file, one per non-empty line. */
export function fixtureChunks(name: string): string[] {
  return readFileSync(fixturePath(name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

export type WireProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/**
 * A `.chunks.txt` fixture as the SSE events the upstream sent, by the replay recipe in the fixtures'
 * README: `event:` names for Anthropic and Responses, `[DONE]` after OpenAI Chat.
 */
export function fixtureSseEvents(name: string, protocol: WireProtocol): SseEvent[] {
  const events: SseEvent[] = fixtureChunks(name).map((data) =>
    protocol === 'anthropic-messages' || protocol === 'openai-responses' ? { event: (JSON.parse(data) as { type: string }).type, data } : { data },
  );
  if (protocol === 'openai-chat') events.push({ data: '[DONE]' });
  return events;
}

/** The same events as the bytes of a `text/event-stream` body. */
export function toSseBody(events: readonly SseEvent[]): string {
  return events.map((event) => `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`).join('');
}

export async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}
