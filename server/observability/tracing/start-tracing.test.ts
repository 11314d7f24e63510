import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTracing } from './start-tracing.js';

const off = { capture_content: false };

test('tracing is off without an endpoint in the config or the environment', () => {
  assert.equal(startTracing(off, {}), undefined);
  assert.equal(startTracing(off, { OTEL_SERVICE_NAME: 'named-but-nowhere-to-send' }), undefined);
});

test('OTEL_SDK_DISABLED=true keeps it off even with an endpoint', () => {
  assert.equal(startTracing(off, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }), undefined);
});

test('an endpoint from either variable or the config turns it on', async () => {
  for (const [config, env] of [
    [{ ...off, otlp_endpoint: 'http://127.0.0.1:4318' }, {}],
    [off, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }],
    [off, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }],
  ] as const) {
    const tracing = startTracing(config, env);
    assert.ok(tracing, JSON.stringify({ config, env }));
    await tracing.shutdown();
  }
});
