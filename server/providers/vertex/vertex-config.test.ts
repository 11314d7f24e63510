import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configSchema, type ProviderConfig } from '../../config/config-schema.js';
import { readServiceAccountKey } from './service-account.js';
import { vertexAnthropicRoute, vertexBaseUrl, vertexGeminiRoute } from './vertex-routes.js';
import { createVertexProvider } from './index.js';

describe('Vertex routes', () => {
  it('uses the regional host, or the global one for location global', () => {
    assert.equal(vertexBaseUrl('us-central1'), 'https://us-central1-aiplatform.googleapis.com');
    assert.equal(vertexBaseUrl('global'), 'https://aiplatform.googleapis.com');
  });

  it('puts Gemini calls under publishers/google, streaming as SSE, and drops a body model', () => {
    const route = vertexGeminiRoute('acme', 'global');
    assert.equal(route.path('gemini-2.5-pro', 'generateContent'), '/v1/projects/acme/locations/global/publishers/google/models/gemini-2.5-pro:generateContent');
    assert.equal(route.path('gemini-2.5-pro', 'streamGenerateContent'), '/v1/projects/acme/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    assert.deepEqual(route.body({ model: 'models/x', contents: [] }, 'gemini-2.5-pro'), { contents: [] });
  });

  it('puts Claude calls under publishers/anthropic with the Vertex version in the body', () => {
    const route = vertexAnthropicRoute('acme', 'us-east5');
    assert.equal(route.path('claude-sonnet-4-5@20250929', false), '/v1/projects/acme/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    assert.equal(route.path('claude-sonnet-4-5@20250929', true), '/v1/projects/acme/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict');
    assert.deepEqual(route.body({ model: 'claude', max_tokens: 5, messages: [] }, 'claude'), { max_tokens: 5, messages: [], anthropic_version: 'vertex-2023-10-16' });
  });
});

describe('Vertex config', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vertex-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const vertex = (extra: Record<string, unknown>) => ({ id: 'v', type: 'vertex', ...extra }) as ProviderConfig;

  it('refuses vertex keys on other providers and api_key on vertex', () => {
    const parsed = configSchema.safeParse({ providers: [{ id: 'a', type: 'openai', location: 'us-central1' }, { id: 'v', type: 'vertex', api_key: 'k' }] });
    assert.equal(parsed.success, false);
    const messages = parsed.error!.issues.map((issue) => issue.message);
    assert.ok(messages.includes('location is for vertex providers only'), messages.join('; '));
    assert.ok(messages.some((message) => message.startsWith('vertex authenticates with a service account')), messages.join('; '));
    assert.equal(configSchema.safeParse({ providers: [{ id: 'v', type: 'vertex', location: 'US Central' }] }).success, false);
  });

  it('reads the key file named by credentials_file, else GOOGLE_APPLICATION_CREDENTIALS, and says what is wrong without its contents', async () => {
    const file = join(dir, 'sa.json');
    await writeFile(file, JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: 'SECRET-PEM', project_id: 'acme' }));
    assert.equal(readServiceAccountKey(vertex({}), { GOOGLE_APPLICATION_CREDENTIALS: file }).projectId, 'acme');
    assert.equal(readServiceAccountKey(vertex({ credentials_file: file }), {}).tokenUri, 'https://oauth2.googleapis.com/token');
    assert.throws(() => readServiceAccountKey(vertex({}), {}), /provider 'v' \(vertex\): no service-account key/);
    assert.throws(() => readServiceAccountKey(vertex({ credentials_file: join(dir, 'missing.json') }), {}), /cannot read .*ENOENT/);
    const user = join(dir, 'user.json');
    await writeFile(user, JSON.stringify({ type: 'authorized_user', private_key: 'SECRET-PEM' }));
    assert.throws(() => readServiceAccountKey(vertex({ credentials_file: user }), {}), (error: Error) => /not a service-account key/.test(error.message) && !error.message.includes('SECRET'));
  });

  it('needs a project from the config or the key file', async () => {
    const file = join(dir, 'no-project.json');
    await writeFile(file, JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: 'PEM' }));
    assert.throws(() => createVertexProvider(vertex({ credentials_file: file })), /no project/);
    const provider = createVertexProvider(vertex({ credentials_file: file, project: 'acme', publisher: 'anthropic' }));
    assert.ok(provider.passThroughs?.['anthropic-messages'] && !provider.passThroughs.gemini);
    await provider.close?.();
  });
});
