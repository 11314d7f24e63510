// Every way a Gemini client names a model in the path reaches it: `models/<id>` (what @google/genai sends,
// `/` in the ID literal or percent-encoded) and the bare resource name that `@ai-sdk/google` and
// `@google/generative-ai` send for an ID containing `/` (`/v1beta/builtin/echo:generateContent`), under
// `v1beta` and `v1`. A model nobody configured is a 404 NOT_FOUND naming it, never "Unknown path".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText } from 'ai';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let gateway: TestGateway;
before(async () => {
  gateway = await startGateway();
});
after(() => gateway.close());

const generateBody = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

async function post(path: string, body: unknown = generateBody): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': gateway.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

describe('Gemini model paths', () => {
  test('@ai-sdk/google posts a slashed model ID as a resource name, and it is answered', async () => {
    const paths: string[] = [];
    const google = createGoogleGenerativeAI({
      baseURL: `${gateway.origin}/v1beta`,
      apiKey: gateway.apiKey,
      fetch: (input, init) => {
        paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
        return fetch(input, init);
      },
    });
    const result = await generateText({ model: google('builtin/echo'), prompt: 'Hello gateway' });
    assert.equal(result.text, 'You said: Hello gateway');
    assert.deepEqual(paths, ['/v1beta/builtin/echo:generateContent']);
  });

  for (const version of ['v1beta', 'v1']) {
    for (const path of [`/${version}/builtin/echo`, `/${version}/models/builtin/echo`, `/${version}/models/builtin%2Fecho`]) {
      test(`${path}:generateContent, :streamGenerateContent and :countTokens reach builtin/echo`, async () => {
        const generated = await post(`${path}:generateContent`);
        assert.equal(generated.status, 200, JSON.stringify(generated.body));
        assert.equal(generated.body.candidates[0].content.parts[0].text, 'You said: Hello');
        const streamed = await fetch(`${gateway.origin}${path}:streamGenerateContent?alt=sse`, {
          method: 'POST',
          headers: { 'x-goog-api-key': gateway.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(generateBody),
        });
        assert.equal(streamed.status, 200);
        assert.match(await streamed.text(), /^data: /);
        const counted = await post(`${path}:countTokens`, { contents: generateBody.contents });
        assert.equal(counted.status, 200);
        assert.ok(counted.body.totalTokens > 0);
      });
    }
  }

  for (const [path, model] of [
    ['/v1beta/nobody/configured:generateContent', 'nobody/configured'],
    ['/v1/nobody/configured:streamGenerateContent?alt=sse', 'nobody/configured'],
    ['/v1beta/tunedModels/my-tune:countTokens', 'tunedModels/my-tune'],
    ['/v1beta/models/not-here:generateContent', 'not-here'],
    ['/v1/models/not/here:countTokens', 'not/here'],
  ] as const) {
    test(`${path} is a 404 NOT_FOUND naming the model '${model}'`, async () => {
      const body = path.includes('countTokens') ? { contents: generateBody.contents } : generateBody;
      const { status, body: error } = await post(path, body);
      assert.equal(status, 404);
      assert.equal(error.error.status, 'NOT_FOUND');
      assert.ok(error.error.message.includes(`'${model}'`) || error.error.message.includes(model), error.error.message);
      assert.doesNotMatch(error.error.message, /Unknown path/);
    });
  }
});
