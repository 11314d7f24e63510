// Issue 10, "Bad input": how JSON bodies travel. For every operation with a JSON body, fast-check sends
// its examples (and broken variants) under wrong and odd content types and encodings, over the 1 MiB limit
// with and without a content-length (and as a gzip bomb), as HTTP that Node's parser must refuse (request
// smuggling shapes, bad framing, oversized heads), and as bodies the client abandons half-way. Refusals are
// 4xx in the operation's error shape, except Node's own bare 400/431 for requests that are not HTTP;
// nothing gets a 5xx, hangs, or leaves the gateway unwell.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { judgeAnswer } from './helpers/bad-input/expect-answer.js';
import { BadInputHarness, bodyLimitBytes, minimumCases, runs, seed } from './helpers/bad-input/harness.js';
import { bodyCase, mutatedBodies } from './helpers/bad-input/json-mutations.js';
import { validBodiesOf } from './helpers/bad-input/sample-from-schema.js';
import { sendRaw } from './helpers/bad-input/send.js';
import { judgeJsonBytes } from './helpers/bad-input/spec-oracle.js';
import { operations, type Operation } from './helpers/bad-input/spec-operations.js';
import { validRequest } from './helpers/bad-input/targets.js';
import { contentEncodings, contentTypes, malformedRequests } from './helpers/bad-input/transport-cases.js';

let harness: BadInputHarness;
before(async () => {
  console.log(`bad-input transport: seed ${seed} (BAD_INPUT_SEED=${seed} replays this run)`);
  harness = await BadInputHarness.start();
});
after(() => harness?.close());

// Image generation is left out: a valid one draws a picture, and these cases are mostly valid bodies.
const jsonOperations = operations.filter((operation) => operation.json && operation.operationId !== 'createImage');
const operation = fc.constantFrom(...jsonOperations);
/** An operation with one of its valid bodies, or (one time in three) a broken variant of one. */
const operationAndBody = operation.chain((op) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.nat(validBodiesOf(op).length - 1).map((index) => ({ op, body: bodyCase(`example ${index}`, exampleBytes(op, index)) })) },
    { weight: 1, arbitrary: mutatedBodies(validBodiesOf(op)).map((body) => ({ op, body })) },
  ),
);
const exampleBytes = (op: Operation, index: number) => Buffer.from(JSON.stringify(validBodiesOf(op)[index]));

/**
 * The verdict on a body that arrives as `bytes` once decoded, sent under a media type or encoding judged
 * `judgement`. Both readers (the gateway's own and body-parser, for compressed bodies and unusual JSON
 * media types) judge the decoded bytes alike.
 */
function verdictFor(op: Operation, bytes: Buffer, judgement: 'judge' | 'refuse'): 'refuse' | 'either' {
  // No body, no media type to be wrong: an empty body reads as `{}` (spec-oracle.ts).
  if (judgement === 'refuse' && bytes.length > 0) return 'refuse';
  return judgeJsonBytes(bytes, op.json!.schema, bodyLimitBytes).verdict;
}

describe('bodies under the wrong media type, encoding or size get a 4xx in their shape, never a 5xx', () => {
  test('content types', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(operationAndBody, fc.nat(contentTypes.length - 1), async ({ op, body }, index) => {
        const { type, verdict } = contentTypes[index]!;
        const request = validRequest(op, harness.facts);
        const headers = type === undefined ? request.headers : { ...request.headers, 'content-type': type };
        await harness.check(`${op.operationId} ${body.label} as ${JSON.stringify(type)?.slice(0, 60)}`, { method: op.method, path: request.path, headers, body: body.bytes }, {
          verdict: verdictFor(op, body.bytes, verdict),
          family: request.family,
          operation: op,
        });
      }),
      runs(550),
    );
  });

  test('content encodings, a gzip bomb among them', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(operationAndBody, fc.nat(contentEncodings.length - 1), fc.boolean(), async ({ op, body }, index, chunked) => {
        const encoding = contentEncodings[index]!;
        const request = validRequest(op, harness.facts);
        await harness.check(
          `${op.operationId} ${body.label} as ${encoding.name}${chunked ? ', chunked' : ''}`,
          { method: op.method, path: request.path, headers: { ...request.headers, 'content-type': 'application/json', 'content-encoding': encoding.header }, body: encoding.encode(body.bytes), chunked },
          { verdict: verdictFor(op, body.bytes, encoding.verdict), family: request.family, operation: op },
        );
      }),
      runs(300),
    );
  });

  test('bodies over the 1 MiB limit, with and without a content-length', { timeout: 60_000 }, async () => {
    const sizes = fc.oneof(fc.constantFrom(bodyLimitBytes + 1, 2 * bodyLimitBytes, 5 * bodyLimitBytes), fc.integer({ min: bodyLimitBytes + 1, max: 3 * bodyLimitBytes }));
    await fc.assert(
      fc.asyncProperty(operation, sizes, fc.boolean(), fc.constantFrom(' ', 'x'), async (op, size, chunked, filler) => {
        const request = validRequest(op, harness.facts);
        // A valid example padded with whitespace, or followed by bytes that are not JSON, to `size` bytes.
        const example = exampleBytes(op, 0);
        const body = Buffer.concat([example, Buffer.alloc(size - example.length, filler)]);
        await harness.check(
          `${op.operationId}: ${size} bytes of ${filler === ' ' ? 'valid JSON' : 'JSON and junk'}${chunked ? ', chunked' : ''}`,
          { method: op.method, path: request.path, headers: { ...request.headers, 'content-type': 'application/json' }, body, chunked },
          { verdict: 'refuse', family: request.family, operation: op },
        );
      }),
      runs(60),
    );
  });

  test('a body of exactly the limit is read', async () => {
    const op = jsonOperations.find((candidate) => candidate.operationId === 'createChatCompletion')!;
    const example = exampleBytes(op, 0);
    const body = Buffer.concat([example, Buffer.alloc(bodyLimitBytes - example.length, ' ')]);
    const request = validRequest(op, harness.facts);
    const answer = await harness.check('a valid body of exactly 1 MiB', { method: 'POST', path: request.path, headers: { ...request.headers, 'content-type': 'application/json' }, body }, { verdict: 'either', family: 'openai' });
    assert.equal(answer.status, 200);
  });
});

describe('HTTP that is not HTTP is refused with a 4xx and does not reach the gateway', () => {
  test('malformed requests, smuggling shapes and oversized heads', { timeout: 60_000 }, async () => {
    const allOperations = fc.constantFrom(...operations);
    await fc.assert(
      fc.asyncProperty(allOperations, fc.nat(malformedRequests.length - 1), async (op, index) => {
        const malformed = malformedRequests[index]!;
        const request = validRequest(op, harness.facts);
        const auth = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
        harness.sent++;
        const answer = await sendRaw(harness.gateway.origin, malformed.bytes({ method: op.method, path: request.path, auth }), { closeAfterWrite: malformed.thenClose });
        const label = `${malformed.name} on ${op.method} ${op.template}`;
        const abandoned = malformed.thenClose && answer.status === 0;
        // Node's parser answers before any route with an empty 400 or 431; an answer from the gateway has its shape.
        const bare = answer.body.length === 0 && (answer.status === 400 || answer.status === 431);
        const problem = abandoned || bare ? undefined : judgeAnswer({ verdict: 'refuse', family: 'any' }, answer);
        assert.equal(problem, undefined, `${label}: ${problem}\n${answer.raw.subarray(0, 300).toString('latin1')}`);
      }),
      runs(700),
    );
    await harness.assertHealthy();
  });

  test('bodies abandoned half-way leave the gateway well', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(operation, fc.double({ min: 0, max: 0.99, noNaN: true }), fc.boolean(), async (op, fraction, chunked) => {
        const request = validRequest(op, harness.facts);
        const body = exampleBytes(op, 0);
        const framing = chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`;
        const auth = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
        const head = `${op.method} ${request.path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\n${framing}\r\n`;
        const sent = body.subarray(0, Math.floor(body.length * fraction));
        const part = chunked ? Buffer.concat([Buffer.from(`${sent.length.toString(16)}\r\n`), sent, Buffer.from('\r\n')]) : sent;
        harness.sent++;
        await abandon(harness.gateway.origin, Buffer.concat([Buffer.from(head), part]));
      }),
      runs(200),
    );
    await harness.assertHealthy();
  });
});

/** Writes `bytes`, then resets the connection without waiting for an answer. */
function abandon(origin: string, bytes: Buffer): Promise<void> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(bytes, () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    socket.on('error', () => resolve());
  });
}

test(`at least ${minimumCases.transport} transport cases were sent, and the gateway is still well`, async () => {
  console.log(`bad-input transport: ${harness.sent} cases sent`);
  assert.ok(harness.sent >= minimumCases.transport, `only ${harness.sent} transport cases were sent`);
  await harness.assertHealthy();
});
