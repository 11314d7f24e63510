// The published-spec oracle itself (test/helpers/openai-spec/): how it reads OpenAI's document, that each
// entry of its allow-list is what OpenAI's own examples break, that it names the path and the rule of what
// it rejects, that it watches a gateway's JSON answers and event streams, and that our own contract's
// examples of OpenAI answers are answers OpenAI's spec accepts.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { operationRoutes, type OperationId } from '../generated/operations.js';
import { asJsonSchema2020 } from './helpers/openai-spec/as-json-schema-2020.js';
import { knownDeviations } from './helpers/openai-spec/known-deviations.js';
import { openAiOperationOf, publishedOperations, publishedSchemaFor, type MediaType } from './helpers/openai-spec/openai-surface.js';
import { publishedExamples } from './helpers/openai-spec/published-examples.js';
import { createPublishedValidator, publishedValidator } from './helpers/openai-spec/published-validator.js';
import { takeOpenAiViolations, watchOpenAiAnswers } from './helpers/openai-spec/watch-openai-answers.js';

describe('reading the 3.1 document as JSON Schema 2020-12', () => {
  test('nullable: true is "or null", whatever the schema is', () => {
    const read = asJsonSchema2020({
      Text: { type: 'string', nullable: true, description: 'kept' },
      Choice: { type: 'string', enum: ['a', 'b'], nullable: true },
      Ref: { $ref: '#/components/schemas/Text', nullable: true, description: 'kept outside' },
      Union: { anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      Anything: { nullable: true },
      NotNull: { type: 'string', nullable: false },
      Nested: { type: 'object', properties: { nullable: { type: 'integer', nullable: true } } },
    });
    assert.deepEqual(read.Text, { type: ['string', 'null'], description: 'kept' });
    assert.deepEqual(read.Choice, { type: ['string', 'null'], enum: ['a', 'b', null] });
    assert.deepEqual(read.Ref, { description: 'kept outside', anyOf: [{ $ref: '#/components/schemas/Text' }, { type: 'null' }] });
    assert.deepEqual(read.Union, { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] });
    assert.deepEqual(read.Anything, {});
    assert.deepEqual(read.NotNull, { type: 'string' });
    assert.deepEqual(read.Nested, { type: 'object', properties: { nullable: { type: ['integer', 'null'] } } }, 'a property named nullable is a name, not the keyword');
  });

  test("3.0's boolean exclusiveMinimum and 2019-09's $recursiveRef say what they meant", () => {
    const read = asJsonSchema2020({
      Rate: { type: 'number', minimum: 0, exclusiveMinimum: true },
      Filter: { $recursiveAnchor: true, type: 'object', properties: { filters: { items: { oneOf: [{ type: 'string' }, { $recursiveRef: '#' }] } } } },
    });
    assert.deepEqual(read.Rate, { type: 'number', exclusiveMinimum: 0 });
    assert.deepEqual(read.Filter, { type: 'object', properties: { filters: { items: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Filter' }] } } } });
  });

  test('the published document read so accepts null where it says nullable, and only there', () => {
    const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [] };
    // `usage` of a chunk is written `$ref: CompletionUsage` with `nullable: true`… in a 3.1 document.
    assert.deepEqual(publishedValidator().violations('CreateChatCompletionStreamResponse', { ...chunk, usage: null }), []);
    assert.match(publishedValidator().violations('CreateChatCompletionStreamResponse', { ...chunk, model: null }).join('\n'), /\/model: must be string/);
  });
});

describe("the allow-list: rules OpenAI's own examples break", () => {
  const examples = publishedExamples();

  for (const deviation of knownDeviations) {
    test(`${deviation.schema} also accepts ${deviation.alsoAccepts}: ${deviation.brokenBy} has it at ${deviation.at}`, () => {
      const example = examples.find((candidate) => candidate.source === deviation.brokenBy);
      assert.ok(example, `no example ${deviation.brokenBy} in OpenAI's document`);
      const others = knownDeviations.filter((other) => other !== deviation);
      const atThatPath = (lines: string[]) => lines.filter((line) => line.startsWith(`${deviation.at}: `) || line.startsWith(`${deviation.at}/`));
      const without = createPublishedValidator(others).violations(example.schemaName, example.value);
      assert.notDeepEqual(atThatPath(without), [], `without the entry, ${deviation.brokenBy} breaks a rule at ${deviation.at}`);
      assert.deepEqual(atThatPath(publishedValidator().violations(example.schemaName, example.value)), [], 'with it, nothing there');
    });
  }

  test("every example of OpenAI's is read; what the oracle still rejects in them is listed", (t) => {
    const unreadable = examples.filter((example) => example.unreadable).map((example) => example.source);
    // JSON with a missing comma in OpenAI's document: no value to check.
    assert.deepEqual(unreadable, ['ResponseFunctionCallArgumentsDeltaEvent example']);
    const checked = examples.filter((example) => !example.unreadable);
    assert.ok(checked.length > 80, `${checked.length} examples`);
    // Rules the gateway keeps although some example of OpenAI's breaks them (a `logprobs` left out, a
    // `sequence_number` missing from an abbreviated stream): shown, not exempted.
    const brokenBy = new Map<string, string[]>();
    for (const example of checked) {
      for (const violation of publishedValidator().violations(example.schemaName, example.value)) {
        const rule = / \(rule ([^)]+)\)$/.exec(violation)?.[1] ?? violation;
        brokenBy.set(rule, [...(brokenBy.get(rule) ?? []), example.source]);
      }
    }
    for (const [rule, sources] of brokenBy) t.diagnostic(`${rule}: ${sources.length} broken by ${[...new Set(sources)].slice(0, 3).join('; ')}${sources.length > 3 ? ', …' : ''}`);
  });
});

describe('what the oracle says', () => {
  test('a violation names the path in the value and the rule, in the branch the value meant', () => {
    const delta = { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi', logprobs: [] };
    assert.deepEqual(publishedValidator().violations('ResponseStreamEvent', delta), [
      "/: must have required property 'sequence_number' (rule /components/schemas/ResponseTextDeltaEvent/required)",
    ]);
    const listed = { object: 'list', data: [{ id: 'fco_1', type: 'function_call_output', call_id: 'call_1', output: '42' }], first_id: 'fco_1', last_id: 'fco_1', has_more: false };
    assert.deepEqual(publishedValidator().violations('ResponseItemList', listed), [
      "/data/0: must have required property 'status' (rule /components/schemas/FunctionToolCallOutputResource/allOf/1/required)",
    ]);
  });

  test('image stream events are checked too (ImageGenStreamEvent, ImageEditStreamEvent)', () => {
    const partial = { type: 'image_generation.partial_image', b64_json: 'AA==', created_at: 1, size: '1024x1024', quality: 'auto', background: 'opaque', output_format: 'png', partial_image_index: 0 };
    assert.deepEqual(publishedValidator().violations('ImageGenStreamEvent', partial), []);
    assert.deepEqual(publishedValidator().violations('ImageEditStreamEvent', { ...partial, type: 'image_edit.partial_image', size: '8x8' }), [
      '/size: must be equal to one of the allowed values ["1024x1024","1024x1536","1536x1024","auto"] (rule /components/schemas/ImageEditPartialImageEvent/properties/size/enum)',
    ]);
  });
});

describe('which answers are checked, against what', () => {
  test("each OpenAI operation's answers map to OpenAI's schemas; errors are ErrorResponse", () => {
    const cases: Array<[OperationId, number, MediaType, string | undefined]> = [
      ['createChatCompletion', 200, 'application/json', 'CreateChatCompletionResponse'],
      ['createChatCompletion', 200, 'text/event-stream', 'CreateChatCompletionStreamResponse'],
      ['createResponse', 200, 'text/event-stream', 'ResponseStreamEvent'],
      ['getResponse', 200, 'application/json', 'Response'],
      ['deleteResponse', 200, 'application/json', undefined],
      ['listResponseInputItems', 200, 'application/json', 'ResponseItemList'],
      ['createImage', 200, 'text/event-stream', 'ImageGenStreamEvent'],
      ['createImageEdit', 200, 'text/event-stream', 'ImageEditStreamEvent'],
      ['createImageEdit', 200, 'application/json', 'ImagesResponse'],
      ['listModels', 200, 'application/json', 'ListModelsResponse'],
      ['retrieveModel', 200, 'application/json', 'Model'],
      ['createFile', 200, 'application/json', 'OpenAIFile'],
      ['listFiles', 200, 'application/json', 'ListFilesResponse'],
      ['retrieveFile', 200, 'application/json', 'OpenAIFile'],
      ['deleteFile', 200, 'application/json', 'DeleteFileResponse'],
      ['downloadFile', 200, 'application/json', undefined],
      ['createBatch', 200, 'application/json', 'Batch'],
      ['listBatches', 200, 'application/json', 'ListBatchesResponse'],
      ['retrieveBatch', 200, 'application/json', 'Batch'],
      ['cancelBatch', 200, 'application/json', 'Batch'],
      ['createResponse', 429, 'application/json', 'ErrorResponse'],
      ['createChatCompletion', 400, 'application/json', 'ErrorResponse'],
    ];
    for (const [operationId, status, mediaType, schema] of cases) assert.equal(publishedSchemaFor(operationId, status, mediaType), schema, `${operationId} ${status} ${mediaType}`);
  });

  test('only requests answered in OpenAI shapes are watched', () => {
    const req = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers });
    assert.equal(openAiOperationOf(req('POST', '/v1/chat/completions')), 'createChatCompletion');
    assert.equal(openAiOperationOf(req('GET', '/v1/responses/resp_1/input_items?limit=2')), 'listResponseInputItems');
    assert.equal(openAiOperationOf(req('GET', '/v1/models')), 'listModels');
    assert.equal(openAiOperationOf(req('GET', '/v1/models', { 'anthropic-version': '2023-06-01' })), undefined, "the Anthropic SDK's model list");
    assert.equal(openAiOperationOf(req('GET', '/v1/keys')), undefined, 'a gateway-only path');
    assert.equal(openAiOperationOf(req('POST', '/v1/messages')), undefined);
  });

  test('a watched server: every event of a stream and every JSON answer, however the writes are cut', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/v1/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const good = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] });
        const bad = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', system_fingerprint: null, choices: [] });
        const frames = `data: ${good}\n\ndata: ${bad}\n\ndata: [DONE]\n\n`;
        res.write(frames.slice(0, 25));
        res.write(frames.slice(25, 200));
        res.end(frames.slice(200));
        return;
      }
      if (req.url === '/v1/images/generations') {
        // A failure after an image stream began: no event of OpenAI's spec, but an error as its SDK reads one.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: 'failed', type: 'server_error', param: null, code: 'server_error' } })}\n\n`);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no', type: 'invalid_request_error', code: null } }));
    });
    watchOpenAiAnswers(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await (await fetch(`${origin}/v1/chat/completions`, { method: 'POST' })).text();
      await (await fetch(`${origin}/v1/images/generations`, { method: 'POST' })).text();
      await (await fetch(`${origin}/v1/responses`, { method: 'POST' })).text();
    } finally {
      server.close();
    }
    // Taken here, so that this test's afterEach does not fail on them.
    const found = takeOpenAiViolations();
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(found[0]!, /^POST \/v1\/chat\/completions → event 1 is no CreateChatCompletionStreamResponse:\n {2}\/system_fingerprint: must be string \(rule \/components\/schemas\/CreateChatCompletionStreamResponse\/properties\/system_fingerprint\/type\)/);
    assert.match(found[1]!, /^POST \/v1\/responses → 400 JSON is no ErrorResponse:\n {2}\/error: must have required property 'param' \(rule \/components\/schemas\/Error\/required\)/);
  });
});

test("our contract's examples of OpenAI answers are answers OpenAI's spec accepts", () => {
  const spec = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as Record<string, never>;
  const resolve = <T>(node: T): T => {
    const ref = (node as { $ref?: string })?.$ref;
    return ref ? resolve(ref.slice(2).split('/').reduce((at: Record<string, never>, step) => at[step], spec) as T) : node;
  };
  let checked = 0;
  const broken: string[] = [];
  for (const operationId of Object.keys(publishedOperations) as OperationId[]) {
    const route = operationRoutes.find((candidate) => candidate.operationId === operationId)!;
    const responses = (spec.paths[route.path] as Record<string, { responses: Record<string, unknown> }>)[route.method]!.responses;
    for (const [status, response] of Object.entries(responses)) {
      const content = (resolve(response) as { content?: Record<string, { examples?: Record<string, unknown> }> }).content ?? {};
      for (const [mediaType, { examples = {} }] of Object.entries(content)) {
        const schemaName = publishedSchemaFor(operationId, status === 'default' ? 500 : Number(status), mediaType as MediaType);
        if (!schemaName) continue;
        for (const [name, example] of Object.entries(examples)) {
          // `GET /v1/models` answers the Anthropic SDK in Anthropic's shape; that example is not OpenAI's.
          if (name === 'anthropic') continue;
          const value = (resolve(example) as { value: unknown }).value;
          const values = mediaType === 'text/event-stream' ? sseData(value as string) : [value];
          for (const one of values) {
            checked++;
            const violations = publishedValidator().violations(schemaName, one);
            if (violations.length) broken.push(`${operationId} ${status} ${mediaType} example ${name}: ${violations.join('; ')}`);
          }
        }
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 20, `${checked} examples`);
});

/** The JSON of each `data:` line of an event-stream example (Chat Completions' `[DONE]` left out). */
function sseData(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}
