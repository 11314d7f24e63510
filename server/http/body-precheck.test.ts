// The body pre-check must never pass a body express-openapi-validator would refuse (and should pass what it
// passes): checked against the validator itself, served by a real Express app, on the spec's own examples
// and on thousands of broken variants of them. A test-mode gateway must still validate responses of calls
// that passed the pre-check.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { operationRoutes } from '../../generated/operations.js';
import { startUpstreamGateway } from '../../test/helpers/upstream-gateway.js';
import { projectRoot } from '../project-root.js';
import { createBodyPrecheck, type BodyPrecheck } from './body-precheck.js';
import { contractValidatorOptions, withoutExamples } from './openapi-validator.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const operations = ['/v1/chat/completions', '/v1/responses', '/v1/images/generations'];

type Example = { value: Json } | { $ref: string };
let spec: {
  paths: Record<string, { post: { requestBody: { content: Record<string, { examples: Record<string, Example> }> } } }>;
  components: { examples: Record<string, { value: Json }> };
};
let precheck: BodyPrecheck;
let server: Server;
let origin: string;

before(async () => {
  const text = await readFile(join(projectRoot, 'generated/openapi.json'), 'utf8');
  spec = JSON.parse(text);
  const contract: OpenAPIV3.DocumentV3 = JSON.parse(text);
  const apiSpec = withoutExamples(contract);
  precheck = createBodyPrecheck(structuredClone(apiSpec), contractValidatorOptions(apiSpec, false));
  // The validator alone, as the gateway ran it before the pre-check: its verdict is the reference.
  const app = express();
  app.use(express.json({ strict: false, limit: '1mb' }));
  app.use(OpenApiValidator.middleware(contractValidatorOptions(structuredClone(apiSpec), false)));
  app.post(/.*/, (_req, res) => void res.json({ valid: true }));
  app.use(((error, _req, res, _next) => void res.status(error.status ?? 500).json({ message: error.message })) as express.ErrorRequestHandler);
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server.close());

const examplesOf = (path: string): Json[] =>
  Object.values(spec.paths[path]!.post.requestBody.content['application/json']!.examples).map((example) =>
    '$ref' in example ? spec.components.examples[example.$ref.split('/').pop()!]!.value : example.value,
  );

async function validatorAccepts(path: string, body: Json): Promise<boolean> {
  const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const verdict = (await response.json()) as { valid?: boolean; message?: string };
  if (response.status !== 200 && response.status !== 400) throw new Error(`validator answered ${response.status}: ${verdict.message}`);
  return response.status === 200;
}

const operationIdOf = (path: string) => operationRoutes.find((route) => route.method === 'post' && route.path === path)!.operationId;

const precheckAccepts = (path: string, body: Json) =>
  precheck({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: structuredClone(body) } as never, operationIdOf(path));

/** Wrong types, empty values, out-of-range numbers, and values that are valid elsewhere in these bodies. */
const replacements: Json[] = [null, true, 0, -1, 1.5, 3, 1e9, '', 'x', 'user', 'auto', 'b64_json', [], {}, [1], { unknown_field: 1 }, { type: 'text' }];

/** Every body one edit away from `body`: each value (at any depth) removed or replaced, unknown keys added. */
function* brokenVariants(body: Json): Generator<Json> {
  for (const replacement of replacements) yield replacement; // the whole body
  if (body === null || typeof body !== 'object') return;
  const entries: Array<[string | number, Json]> = Array.isArray(body) ? body.map((value, index) => [index, value]) : Object.entries(body);
  if (!Array.isArray(body)) yield { ...body, unknown_field: 'x' };
  for (const [key, value] of entries) {
    const without = Array.isArray(body) ? body.filter((_item, index) => index !== key) : Object.fromEntries(entries.filter(([other]) => other !== key));
    yield without;
    for (const variant of brokenVariants(value)) {
      const copy = structuredClone(body) as Record<string | number, Json>;
      copy[key] = variant;
      yield copy;
    }
  }
}

test("the spec's examples pass the pre-check", () => {
  for (const path of operations) {
    for (const example of examplesOf(path)) assert.ok(precheckAccepts(path, example), `${path}: ${JSON.stringify(example)}`);
  }
});

test('on thousands of broken bodies the pre-check passes exactly what the validator passes', { timeout: 120_000 }, async () => {
  let compared = 0;
  let refused = 0;
  const disagreements: string[] = [];
  for (const path of operations) {
    for (const example of examplesOf(path)) {
      for (const variant of brokenVariants(example)) {
        const [expected, actual] = [await validatorAccepts(path, variant), precheckAccepts(path, variant)];
        compared++;
        if (!expected) refused++;
        if (expected !== actual) disagreements.push(`${path}: validator ${expected}, pre-check ${actual}: ${JSON.stringify(variant)}`);
      }
    }
  }
  assert.deepEqual(disagreements.slice(0, 10), []);
  assert.ok(compared >= 2_000, `only ${compared} bodies compared`);
  assert.ok(refused >= 500, `only ${refused} of ${compared} bodies were refused: the variants are too tame to test anything`);
});

test('requests the pre-check does not know are left to the validator', () => {
  const body = examplesOf('/v1/chat/completions')[0]!;
  const call = (fields: Record<string, unknown>, operationId = 'createChatCompletion') =>
    precheck({ method: 'POST', url: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body, ...fields } as never, operationId);
  assert.equal(call({}), true);
  assert.equal(call({ url: '/v1/chat/completions?x=1' }), false);
  assert.equal(call({ method: 'PUT' }), false);
  assert.equal(call({ headers: { 'content-type': 'text/plain' } }), false);
  assert.equal(call({ headers: {} }), false);
  assert.equal(call({}, 'createMessage'), false, 'operations with parameters are not pre-checked');
});

test('a call that passed the pre-check still has its response validated in test mode', async () => {
  const { upstream, openai, close } = await startUpstreamGateway('openai');
  try {
    // A chat completion without `choices`, which the contract requires.
    upstream.enqueue({ json: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm' } });
    await assert.rejects(openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }] }), (error: { status?: number }) => error.status === 500);
  } finally {
    await close();
  }
});
