import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TestGateway } from './start-gateway.js';

const ms = (nanoseconds: number) => nanoseconds / 1e6;

/** One chat request to the built-in echo model with the gateway's key, read to its end; resolves with its status. */
export async function echoChat(gateway: Pick<TestGateway, 'origin' | 'apiKey'>): Promise<number> {
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'still there?' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

export interface ChatsDuring<T> {
  /** What `work` resolved with. */
  result: T;
  /** The status of each chat, in order. */
  chats: number[];
  /** This process's event-loop delay while `work` ran, in milliseconds. */
  p99: number;
  p995: number;
  max: number;
  /** The delay's percentiles and the number of chats, for a log line or an assertion's message. */
  summary: string;
}

/**
 * Chat requests one after another (`chat`) while `work` runs, and the event loop's delay meanwhile: for tests
 * whose gateway runs in this process, so that `monitorEventLoopDelay` sees the gateway's own event loop.
 */
export async function chatsDuring<T>(work: Promise<T>, chat: () => Promise<number>): Promise<ChatsDuring<T>> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let working = true;
  const done = work.finally(() => (working = false));
  const chats: number[] = [];
  while (working) chats.push(await chat());
  const result = await done;
  delay.disable();
  const [p50, p99, p995, max] = [delay.percentile(50), delay.percentile(99), delay.percentile(99.5), delay.max].map(ms);
  const summary = `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, p99.5 ${p995.toFixed(1)} ms, max ${max.toFixed(1)} ms over ${delay.count} samples, ${chats.length} chats`;
  return { result, chats, p99, p995, max, summary };
}
