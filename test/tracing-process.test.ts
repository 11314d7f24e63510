// Traces from the gateway as `npm start` runs it, turned on by the standard OTEL_* variables: the spans
// of a call made just before SIGTERM reach the collector, sent by the shutdown (the batch would wait 5 s).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startOtlpReceiver } from './helpers/otlp-receiver.js';
import { runKeysCli, spawnGateway } from './helpers/spawn-gateway.js';

test('SIGTERM sends the spans still queued before the process exits', async () => {
  const otlp = await startOtlpReceiver();
  const gateway = await spawnGateway({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin, OTEL_SERVICE_NAME: 'gateway-process' });
  try {
    const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'traced', '--json']);
    const { key } = JSON.parse(stdout) as { key: string };
    const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/echo', messages: [{ role: 'user', content: 'hello from the process test' }] }),
    });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(otlp.spans.length, 0, 'nothing is sent before the batch is due');
    gateway.child.kill('SIGTERM');
    assert.equal(await gateway.exited, 0);

    assert.deepEqual(otlp.spans.map((span) => [span.kind, span.name, span.serviceName]).sort(), [
      ['client', 'chat echo', 'gateway-process'],
      ['server', 'chat builtin/echo', 'gateway-process'],
    ]);
    assert.ok(!otlp.rawBodies.join('').includes(key));
  } finally {
    gateway.child.kill('SIGKILL');
    await otlp.close();
  }
});
