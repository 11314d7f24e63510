// The gateway takes every request OpenAI's published spec calls valid (issue 36 point 5). For each
// operation the two share (same method and path), fast-check makes requests from the PUBLISHED request
// schemas (helpers/openai-spec/published-requests.ts: bodies, query parameters and multipart forms, each
// checked valid by the published spec's own validator) and sends them, with a key, to a real gateway on a
// socket whose built-in models answer. None may be refused by the contract validator (a 400 naming a
// JSON pointer, or a 415) nor fail (5xx); what the gateway refuses on purpose is listed, with reasons, in
// helpers/openai-spec/refused-on-purpose.ts, and each of those is shown to still be refused.
//
// ACCEPTS_SEED=<n> replays a run (the seed is printed, and fast-check prints it with a failing case);
// ACCEPTS_SEED=random explores; ACCEPTS_RUNS=<n> sets the requests per operation (default 100).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { OperationId } from '../generated/operations.js';
import { publishedRequests, sharedOperations, type PublishedRequest, type SentMediaType, type SharedOperation } from './helpers/openai-spec/published-requests.js';
import { refusedOnPurpose } from './helpers/openai-spec/refused-on-purpose.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { tinyPng } from './helpers/upstream-gateway.js';

const seed = process.env.ACCEPTS_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.ACCEPTS_SEED ?? 36);
const runsPerOperation = Number(process.env.ACCEPTS_RUNS ?? 100);
console.log(`accepts-published-requests: seed ${seed}, ${runsPerOperation} requests per operation (ACCEPTS_SEED=${seed} replays this run)`);

/** The built-in model each model-calling operation is sent to (the gateway resolves the model before it checks the body). */
const servedModel: Partial<Record<OperationId, string>> = {
  createChatCompletion: 'builtin/echo',
  createResponse: 'builtin/echo',
  compactResponse: 'builtin/echo',
  createEmbedding: 'builtin/embed',
  createImage: 'builtin/image',
  createImageEdit: 'builtin/image-edit',
};

/**
 * Body media types of OpenAI's operations that the gateway does not take, and why; every other one is sent.
 * `POST /images/edits` as JSON names its images by URL or by an OpenAI file ID, which the gateway does not resolve in model requests.
 */
const unsentMediaTypes: Record<string, string> = {
  'createImageEdit application/json': 'images named by file ID or URL: the gateway takes the images themselves, as multipart',
  // Not a refusal: the generator checks each value it makes against a named schema of the document.
  'createConversationItems application/json': "OpenAI's document gives this body inline, with no schema name to check generated values against (its items are InputItems, as createConversation's, which is generated; test/conversations.test.ts sends items to it)",
};

const png = Buffer.from(tinyPng.split(',')[1]!, 'base64');

interface Answer {
  status: number;
  error?: { message?: string; code?: string | null; param?: string | null };
}

/** The contract validator's refusals: a 400 whose message starts with the JSON pointer it broke, or a 415. */
function refusedByContract(answer: Answer): boolean {
  return (answer.status === 400 && /^\/(body|query|path|headers)\b/.test(answer.error?.message ?? '')) || answer.status === 415;
}

describe("the gateway accepts every request OpenAI's published spec calls valid", () => {
  let gateway: TestGateway;
  const shared = sharedOperations();
  /** What each operation answered besides success, by status and error code: printed, for the record. */
  const otherAnswers = new Map<string, number>();

  before(async () => {
    gateway = await startGateway();
  });
  after(() => gateway.close());

  /** A stored response for the path parameters that name one: a random ID would be a 404 once past the validator. */
  async function storedResponseId(): Promise<string> {
    const answer = await fetch(`${gateway.origin}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/echo', input: 'Remember this.' }),
    });
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { id: string }).id;
  }

  async function send(operation: SharedOperation, request: PublishedRequest): Promise<Answer & { sent: string }> {
    const pathParams: Record<string, string> = { ...request.pathParams };
    if ('response_id' in pathParams) pathParams.response_id = await storedResponseId();
    if ('model' in pathParams) pathParams.model = 'builtin/echo';
    const query = request.query.length ? `?${new URLSearchParams(request.query).toString()}` : '';
    const path = `/v1${operation.publishedPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!))}${query}`;
    const headers: Record<string, string> = { authorization: `Bearer ${gateway.apiKey}` };
    let body: string | FormData | undefined;
    let shown = '';
    const model = servedModel[operation.route.operationId];
    if (request.body?.mediaType === 'application/json') {
      const fields = { ...request.body.value, ...(model ? { model } : {}) };
      // Both spellings of Chat's output cap are refused before the contract is checked (issue 34: one
      // spelling per field): such a body would tell nothing about the contract, so it keeps the current one.
      if ('max_tokens' in fields && 'max_completion_tokens' in fields) delete fields.max_tokens;
      body = JSON.stringify(fields);
      shown = body;
      headers['content-type'] = 'application/json';
    } else if (request.body?.mediaType === 'multipart/form-data') {
      const fields = { ...request.body.value, ...(model ? { model } : {}) };
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        // A form has no null: a field left unset is left out, as OpenAI's SDKs do.
        if (value === null || value === undefined) continue;
        // Arrays as OpenAI's SDKs send them: `image[]` once per item.
        const items = Array.isArray(value) ? value : [value];
        const fieldName = Array.isArray(value) ? `${name}[]` : name;
        for (const item of items) {
          if (request.body.files.includes(name)) form.append(fieldName, new Blob([png], { type: 'image/png' }), 'image.png');
          else form.append(fieldName, typeof item === 'object' ? JSON.stringify(item) : String(item));
        }
      }
      body = form;
      shown = JSON.stringify(fields);
    }
    const response = await fetch(`${gateway.origin}${path}`, { method: operation.route.method.toUpperCase(), headers, body });
    const text = await response.text();
    const answer: Answer = { status: response.status };
    if (response.status >= 400) answer.error = (JSON.parse(text) as { error?: Answer['error'] }).error;
    return { ...answer, sent: `${operation.route.method.toUpperCase()} ${path} ${shown}` };
  }

  test('the operations shared with OpenAI are found by method and path', () => {
    const found = shared.map((operation) => operation.route.operationId).sort();
    assert.deepEqual(found, [
      'cancelBatch',
      'compactResponse',
      'createBatch',
      'createChatCompletion',
      'createConversation',
      'createConversationItems',
      'createEmbedding',
      'createFile',
      'createImage',
      'createImageEdit',
      'createResponse',
      'deleteConversation',
      'deleteConversationItem',
      'deleteFile',
      'deleteResponse',
      'downloadFile',
      'getConversation',
      'getConversationItem',
      'getResponse',
      'listBatches',
      'listConversationItems',
      'listFiles',
      'listModels',
      'listResponseInputItems',
      'retrieveBatch',
      'retrieveFile',
      'retrieveModel',
      'updateConversation',
    ]);
  });

  const cases = shared.flatMap((operation): Array<{ operation: SharedOperation; mediaType: SentMediaType | undefined }> => {
    const mediaTypes = Object.keys(operation.published.requestBody?.content ?? {});
    if (mediaTypes.length === 0) return [{ operation, mediaType: undefined }];
    return mediaTypes
      .filter((mediaType) => !unsentMediaTypes[`${operation.route.operationId} ${mediaType}`])
      .map((mediaType) => ({ operation, mediaType: mediaType as SentMediaType }));
  });

  for (const { operation, mediaType } of cases) {
    const name = `${operation.route.method.toUpperCase()} ${operation.route.path}${mediaType ? ` (${mediaType})` : ''}`;
    // An operation without a body varies only in its query, and the built-in image models draw real
    // pictures (up to ten of 1536 px a request): a quarter as many requests keeps the file under a minute.
    const fewer = !mediaType || operation.route.operationId === 'createImage' || operation.route.operationId === 'createImageEdit';
    const numRuns = fewer ? Math.ceil(runsPerOperation / 4) : runsPerOperation;
    test(`${name}: every published request is taken`, async () => {
      await fc.assert(
        fc.asyncProperty(publishedRequests(operation, mediaType), async (request) => {
          const answer = await send(operation, request);
          if (answer.status >= 300) {
            const key = `${operation.route.operationId} ${answer.status} ${answer.error?.code ?? ''}`;
            otherAnswers.set(key, (otherAnswers.get(key) ?? 0) + 1);
          }
          assert.ok(!refusedByContract(answer), `the contract refused a request OpenAI's spec allows (ACCEPTS_SEED=${seed}): ${answer.status} ${answer.error?.message}\n${answer.sent}`);
          assert.ok(answer.status < 500, `the gateway failed on a request OpenAI's spec allows (ACCEPTS_SEED=${seed}): ${answer.status} ${answer.error?.message}\n${answer.sent}`);
        }),
        { seed, numRuns, endOnFailure: true },
      );
    });
  }

  test('each entry of refused-on-purpose.ts is still refused (else it is stale and must go)', async () => {
    const minimal: Partial<Record<OperationId, Record<string, unknown>>> = {
      createChatCompletion: { model: 'builtin/echo', messages: [{ role: 'user', content: 'Hi' }] },
      createResponse: { model: 'builtin/echo', input: 'Hi' },
      compactResponse: { model: 'builtin/echo', input: 'Hi' },
      createEmbedding: { model: 'builtin/embed', input: 'Hi' },
      createImage: { model: 'builtin/image', prompt: 'A lighthouse' },
      createImageEdit: { model: 'builtin/image-edit', prompt: 'Add a boat' },
      createBatch: { input_file_id: 'file-none', endpoint: '/v1/chat/completions', completion_window: '24h' },
    };
    for (const entry of refusedOnPurpose) {
      const operation = shared.find((candidate) => candidate.route.operationId === entry.refused.operation)!;
      const value = { ...minimal[entry.refused.operation], ...entry.refused.fields };
      const multipart = operation.route.body === 'multipart';
      // The one file part each multipart operation needs: an image to edit, or the file to store.
      const fileField = entry.refused.operation === 'createFile' ? 'file' : 'image';
      const request: PublishedRequest = multipart
        ? { pathParams: {}, query: [], body: { mediaType: 'multipart/form-data', value: { ...value, [fileField]: 'image.png' }, files: [fileField] } }
        : { pathParams: {}, query: [], body: { mediaType: 'application/json', value } };
      const answer = await send(operation, request);
      assert.equal(answer.status, 400, `${entry.schema}: ${answer.sent} was taken; remove the entry`);
    }
  });

  test('what the gateway answered besides success', (t) => {
    for (const [key, count] of [...otherAnswers].sort()) t.diagnostic(`${key}: ${count}`);
  });
});
