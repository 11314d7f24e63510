// Issue 10, "Bad input": JSON request bodies. For every operation of the contract with a JSON body,
// fast-check breaks the spec's own examples (wrong types, missing and unknown fields, huge strings and
// arrays, 1,000 to 100,000 levels of nesting, odd numbers and strings, invalid UTF-8) and damages their
// text (truncation, stray bytes, other encodings, non-objects). Ajv on the spec's schema judges each body:
// those outside the contract must get a 4xx in the operation's error shape, the rest anything but a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { BadInputHarness, bodyLimitBytes, minimumCases, runs, seed } from './helpers/bad-input/harness.js';
import { mutatedBodies, type BodyCase } from './helpers/bad-input/json-mutations.js';
import { validBodiesOf } from './helpers/bad-input/sample-from-schema.js';
import { bodyMatchesSchema, judgeJsonBytes } from './helpers/bad-input/spec-oracle.js';
import { operations, type Operation } from './helpers/bad-input/spec-operations.js';
import { validRequest } from './helpers/bad-input/targets.js';
import { damagedTexts } from './helpers/bad-input/text-mutations.js';

const mutationRuns = 230;
const damageRuns = 75;
/** Valid image generations cost real work (the built-in model draws them): a few are enough. */
const validImageGenerations = 8;

let harness: BadInputHarness;
before(async () => {
  console.log(`bad-input bodies: seed ${seed} (BAD_INPUT_SEED=${seed} replays this run)`);
  harness = await BadInputHarness.start();
});
after(() => harness?.close());

const jsonOperations = operations.filter((operation) => operation.json);

test('every JSON body operation has valid base bodies to break', () => {
  assert.ok(jsonOperations.length >= 15, `only ${jsonOperations.length} operations with a JSON body`);
  for (const operation of jsonOperations) {
    for (const base of validBodiesOf(operation)) {
      assert.ok(bodyMatchesSchema(operation.json!.schema, base), `${operation.operationId}: base body refused by its own schema: ${JSON.stringify(base)}`);
    }
  }
});

describe('broken JSON bodies get a 4xx in their protocol shape, never a 5xx', () => {
  let validImages = 0;

  async function sendBody(operation: Operation, body: BodyCase): Promise<void> {
    const judged = judgeJsonBytes(body.bytes, operation.json!.schema, bodyLimitBytes);
    if (operation.operationId === 'createImage' && judged.verdict === 'either' && ++validImages > validImageGenerations) return;
    const request = validRequest(operation, harness.facts);
    await harness.check(
      `${operation.operationId} ${body.label} (${judged.why})`,
      { method: operation.method, path: request.path, headers: { ...request.headers, 'content-type': 'application/json' }, body: body.bytes },
      { verdict: judged.verdict, family: request.family, operation },
    );
  }

  for (const operation of jsonOperations) {
    test(`${operation.method} ${operation.template}`, { timeout: 120_000 }, async (t) => {
      if (harness.broken) return t.skip(harness.broken);
      const bases = validBodiesOf(operation);
      const property = (bodies: fc.Arbitrary<BodyCase>) => fc.asyncProperty(bodies, (body) => sendBody(operation, body));
      await fc.assert(property(mutatedBodies(bases)), runs(mutationRuns));
      await fc.assert(property(damagedTexts(bases)), runs(damageRuns));
      await harness.assertHealthy();
    });
  }
});

test(`at least ${minimumCases.bodies} body cases were sent, and the gateway is still well`, async () => {
  assert.ok(Object.values(minimumCases).reduce((sum, count) => sum + count, 0) >= 10_000, 'the bad-input files must send 10,000 cases between them');
  console.log(`bad-input bodies: ${harness.sent} cases sent`);
  assert.ok(harness.sent >= minimumCases.bodies, `only ${harness.sent} body cases were sent`);
  await harness.assertHealthy();
});
