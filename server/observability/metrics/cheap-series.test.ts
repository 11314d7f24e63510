import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { CheapCounter, CheapHistogram } from './cheap-series.js';

const buckets = [0.1, 1, 10];
const observations = [0.05, 0.1, 0.5, 1, 3, 20];

test('a cheap histogram renders exactly as prom-client renders its own', async () => {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ name: 'latency_seconds', help: 'h', labelNames: ['route', 'status'], buckets, registers: [theirs] });
  const cheap = new CheapHistogram(ours, 'latency_seconds', 'h', ['route', 'status'], buckets);
  for (const value of observations) {
    reference.observe({ route: 'chat', status: '200' }, value);
    cheap.observe(['chat', '200'], value);
  }
  reference.observe({ route: 'chat', status: '500' }, 2);
  cheap.observe(['chat', '500'], 2);
  assert.equal(await ours.metrics(), await theirs.metrics());
});

test("workers' cheap counters and histograms sum in the cluster aggregator", async () => {
  const workers = [new Registry(), new Registry()];
  workers.forEach((registry, index) => {
    new CheapCounter(registry, 'requests_total', 'h', ['model']).inc(['echo'], index + 1);
    new CheapHistogram(registry, 'ttft_seconds', 'h', ['model'], buckets).observe(['echo'], 0.5);
  });
  const aggregated = AggregatorRegistry.aggregate(await Promise.all(workers.map((registry) => registry.getMetricsAsJSON())));
  const text = await aggregated.metrics();
  assert.match(text, /^requests_total\{model="echo"\} 3$/m);
  assert.match(text, /^ttft_seconds_bucket\{le="1",model="echo"\} 2$/m);
  assert.match(text, /^ttft_seconds_count\{model="echo"\} 2$/m);
});
