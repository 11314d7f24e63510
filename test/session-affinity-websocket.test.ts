import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream } from './helpers/fake-upstream.js';
import { startGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

// Codex sends its session in the handshake's `session-id` header; every turn on the socket carries the handshake's
// headers, so the turns of one socket (and one session) stay on one deployment, as HTTP turns do (session-affinity.test.ts).
test('WebSocket turns of a Codex session stay on one deployment', async (t) => {
  const fakes = await Promise.all([3, 2, 1].map(() => startFakeUpstream()));
  for (const fake of fakes) fake.enqueue(...Array.from({ length: 200 }, () => ({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' }) as const));
  const config = configSchema.parse({
    providers: fakes.map((fake, i) => ({ id: `p${i}`, type: 'openai', base_url: `${fake.origin}/v1`, api_key: upstreamKey })),
    models: [{ id: 'smart', deployments: fakes.map((_, i) => ({ provider: `p${i}`, upstream_model: `m${i}`, weight: [3, 2, 1][i] })) }],
  });
  const gateway = await startGateway({ config });
  t.after(async () => {
    await gateway.close();
    for (const fake of fakes) await fake.close();
  });
  const homes: number[] = [];
  for (let s = 0; s < 12; s++) {
    const session = randomUUID();
    const ws = new WebSocket(`${gateway.origin.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${gateway.apiKey}`, 'session-id': session } });
    await once(ws, 'open');
    const served = new Set<number>();
    for (let turn = 0; turn < 4; turn++) {
      const before = fakes.map((f) => f.requests.length);
      ws.send(JSON.stringify({ type: 'response.create', model: 'smart', store: false, input: `hi ${turn}` }));
      for (;;) {
        const [data] = await once(ws, 'message');
        const frame = JSON.parse(String(data));
        if (frame.type === 'response.completed' || frame.type === 'error' || frame.type === 'response.failed') { assert.equal(frame.type, 'response.completed', JSON.stringify(frame)); break; }
      }
      fakes.forEach((f, i) => { if (f.requests.length > before[i]!) served.add(i); });
    }
    ws.close();
    assert.equal(served.size, 1, `session ${s} served by ${[...served]}`);
    homes.push([...served][0]!);
  }
  assert.ok(new Set(homes).size > 1, `12 sessions spread over the weighted deployments, not all on ${homes[0]}`);
});
