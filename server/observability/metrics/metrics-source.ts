import type { Registry } from 'prom-client';

/** Where a scrape's text comes from: this process's registry, or every worker's through the primary. */
export interface MetricsSource {
  text(): Promise<string>;
  readonly contentType: string;
}

export function registrySource(registry: Registry): MetricsSource {
  return { text: () => registry.metrics(), contentType: registry.contentType };
}
