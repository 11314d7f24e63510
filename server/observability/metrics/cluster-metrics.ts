import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { MetricsSource } from './metrics-source.js';

/** A worker asks the primary for every worker's metrics (a scrape reached it on the gateway's port). */
interface ScrapeRequest {
  type: 'gateway:metrics-scrape';
  id: number;
}

/** The primary's answer: the aggregated text, or why there is none. */
interface ScrapeAnswer {
  type: 'gateway:metrics-text';
  id: number;
  text?: string;
  error?: string;
}

const scrapeTimeoutMs = 10_000;

/**
 * The primary of `WORKERS=N`: prom-client's AggregatorRegistry asks every worker for its registry and sums
 * them (histograms bucket by bucket, gauges such as open streams too), so one scrape answers for all. It
 * serves the separate metrics port itself, and answers workers that were scraped on the gateway's port.
 */
export function primaryMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: Partial<ScrapeRequest>) => {
    if (message?.type !== 'gateway:metrics-scrape') return;
    const id = message.id!;
    const answer = (fields: Pick<ScrapeAnswer, 'text' | 'error'>) => {
      if (worker.isConnected()) worker.send({ type: 'gateway:metrics-text', id, ...fields } satisfies ScrapeAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
  return { text: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
}

/**
 * A worker of `WORKERS=N`: its registry is what it answers the primary's aggregator with, and a scrape that
 * reaches it is answered with the primary's aggregate of all workers, not its own share.
 */
export function workerMetricsSource(registry: Registry): MetricsSource {
  // Constructing one is what makes prom-client answer the primary's requests in this worker.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on('message', (message: Partial<ScrapeAnswer>) => {
    if (message?.type !== 'gateway:metrics-text') return;
    const waiter = waiting.get(message.id!);
    waiting.delete(message.id!);
    if (message.error !== undefined) waiter?.reject(new Error(`metrics from the workers: ${message.error}`));
    else waiter?.resolve(message.text ?? '');
  });
  return {
    contentType: registry.contentType,
    text: () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('metrics from the workers: the primary did not answer'));
        }, scrapeTimeoutMs);
        waiting.set(id, {
          resolve: (text) => (clearTimeout(timer), resolve(text)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
        process.send!({ type: 'gateway:metrics-scrape', id } satisfies ScrapeRequest);
      }),
  };
}
