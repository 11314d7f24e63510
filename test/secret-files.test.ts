// Secrets from files, as compose and Kubernetes mount them: the admin key and an upstream key in a
// `${NAME}` of the config, each given as NAME_FILE to a gateway process.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { holdsSecret } from './helpers/exposure.js';
import { startFakeUpstream } from './helpers/fake-upstream.js';
import { spawnGateway } from './helpers/spawn-gateway.js';

test('GATEWAY_ADMIN_KEY_FILE and a config ${NAME} read from NAME_FILE', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-secret-files-'));
  const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
  const upstreamKey = `sk-upstream-${Math.random().toString(36).slice(2)}`;
  holdsSecret(adminKey, upstreamKey);
  await writeFile(join(dir, 'admin-key'), `${adminKey}\n`);
  await writeFile(join(dir, 'upstream-key'), `${upstreamKey}\n`);
  const upstream = await startFakeUpstream();
  upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
  await writeFile(
    join(dir, 'gateway.yaml'),
    `providers:\n  - { id: up, type: openai, base_url: "${upstream.origin}/v1", api_key: "\${UPSTREAM_KEY}" }\nmodels:\n  - { id: gpt, provider: up, upstream_model: gpt-4o-mini }\n`,
  );
  const gateway = await spawnGateway({
    GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
    GATEWAY_ADMIN_KEY_FILE: join(dir, 'admin-key'),
    UPSTREAM_KEY_FILE: join(dir, 'upstream-key'),
  });
  try {
    const created = await fetch(`${gateway.origin}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from-file' }),
    });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };
    const chat = await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(chat.status, 200, await chat.clone().text());
    assert.equal(upstream.requests.at(-1)?.headers.authorization, `Bearer ${upstreamKey}`);
  } finally {
    gateway.child.kill('SIGKILL');
    await upstream.close();
  }
});
