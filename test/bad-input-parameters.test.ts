// Issue 10, "Bad input": paths, query and header parameters, credentials and methods, for every operation
// of the contract. fast-check puts hostile values (wrong types, huge, traversal, odd encodings, unknown
// IDs) in each declared parameter, adds unknown ones, drops or garbles the key and tries undeclared
// methods. A value outside the parameter's schema, an ID that names nothing, a bad key and an undeclared
// method must get a 4xx in the operation's error shape; nothing may get a 5xx or hang.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Expectation } from './helpers/bad-input/expect-answer.js';
import { BadInputHarness, minimumCases, runs, seed } from './helpers/bad-input/harness.js';
import { authVariants, hostileValues, mayReroute, methods, place, type Placement } from './helpers/bad-input/request-mutations.js';
import { validBodiesOf } from './helpers/bad-input/sample-from-schema.js';
import { parameterMatchesSchema } from './helpers/bad-input/spec-oracle.js';
import { operations, spec, type Operation, type Parameter } from './helpers/bad-input/spec-operations.js';
import { familyFor, fillTemplate, pathValue, schemeForHeader, secretFor, validRequest } from './helpers/bad-input/targets.js';

const runsPerOperation = 64;
/** Valid image generations cost real work (the built-in model draws them): a few are enough. */
const validImageGenerations = 5;

let harness: BadInputHarness;
before(async () => {
  console.log(`bad-input parameters: seed ${seed} (BAD_INPUT_SEED=${seed} replays this run)`);
  harness = await BadInputHarness.start();
});
after(() => harness?.close());

/** What one case changes about an otherwise valid request. */
type Change =
  | { kind: 'path'; index: number; value: string; placement: Placement }
  | { kind: 'query'; index: number; values: string[]; placement: Placement }
  | { kind: 'unknown query'; name: string; value: string }
  | { kind: 'header'; index: number; value: string }
  | { kind: 'auth'; variant: number }
  | { kind: 'method'; index: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('path' as const), index: fc.nat(), value: hostileValues, placement: fc.constantFrom<Placement>('encoded', 'raw') }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('query' as const), index: fc.nat(), values: fc.array(hostileValues, { minLength: 1, maxLength: 2 }), placement: fc.constantFrom<Placement>('encoded', 'raw') }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknown query' as const), name: fc.string({ minLength: 1, maxLength: 10 }), value: hostileValues }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('header' as const), index: fc.nat(), value: hostileValues }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('auth' as const), variant: fc.nat(authVariants.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('method' as const), index: fc.nat(methods.length - 1) }) },
);

/** Query parameter names that carry a key: sending one would change how the request authenticates. */
const credentialQueryNames = new Set(Object.values(spec.components.securitySchemes).filter((scheme) => scheme.in === 'query').map((scheme) => scheme.name));

interface Built {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  expected: Expectation;
}

/** The request one change makes of the operation's valid request, and what it may get back. */
function build(operation: Operation, c: Change): Built {
  const valid = validRequest(operation, harness.facts);
  const of = (where: Parameter['in']) => operation.parameters.filter((parameter) => parameter.in === where);
  const base: Built = { label: '', method: operation.method, path: valid.path, headers: valid.headers, expected: { verdict: 'either', family: valid.family, operation } };
  const withQuery = (path: string, pair: string) => `${path}${path.includes('?') ? '&' : '?'}${pair}`;
  switch (c.kind) {
    case 'path': {
      const parameter = of('path')[c.index % Math.max(1, of('path').length)];
      if (!parameter) return build(operation, { kind: 'unknown query', name: 'x', value: c.value });
      const path = fillTemplate(operation.template, (name) =>
        name === parameter.name ? place(c.value, c.placement) : encodeURIComponent(pathValue(operation, name, harness.facts)),
      );
      const query = valid.path.includes('?') ? valid.path.slice(valid.path.indexOf('?')) : '';
      const rerouted = mayReroute(c.value, c.placement) || c.value === '';
      const names = harness.facts.existing[parameter.name] ?? [];
      const refuse = !rerouted && !names.includes(c.value);
      return {
        ...base,
        label: `path ${parameter.name} = ${JSON.stringify(c.value).slice(0, 60)} (${c.placement})`,
        path: path + query,
        // A rerouted request is answered by whatever route (or 404) it lands on, so not by this operation's schemas.
        expected: { verdict: refuse ? 'refuse' : 'either', family: rerouted ? 'any' : valid.family, operation: rerouted ? undefined : operation },
      };
    }
    case 'query': {
      const parameter = of('query')[c.index % Math.max(1, of('query').length)];
      if (!parameter) return build(operation, { kind: 'unknown query', name: 'x', value: c.values[0]! });
      const pairs = c.values.map((value) => `${parameter.name}=${place(value, 'encoded')}`);
      const path = pairs.reduce(withQuery, valid.path);
      const sent = c.values.length === 1 ? c.values[0]! : c.values;
      return {
        ...base,
        label: `query ${pairs.join('&').slice(0, 80)}`,
        path,
        expected: { ...base.expected, verdict: parameterMatchesSchema(parameter, sent) ? 'either' : 'refuse' },
      };
    }
    case 'unknown query': {
      const name = credentialQueryNames.has(c.name) || operation.parameters.some((p) => p.name === c.name) ? `${c.name}_` : c.name;
      return { ...base, label: `unknown query ${JSON.stringify(name)}`, path: withQuery(valid.path, `${encodeURIComponent(name)}=${encodeURIComponent(c.value)}`) };
    }
    case 'header': {
      const parameter = of('header')[c.index % Math.max(1, of('header').length)];
      // Header values travel as latin-1 without controls.
      const value = c.value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
      if (!parameter) return { ...base, label: `unknown header = ${JSON.stringify(value).slice(0, 60)}`, headers: { ...base.headers, 'x-unknown': value } };
      const verdict = parameterMatchesSchema(parameter, value) ? 'either' : 'refuse';
      return { ...base, label: `header ${parameter.name} = ${JSON.stringify(value).slice(0, 60)}`, headers: { ...base.headers, [parameter.name]: value }, expected: { ...base.expected, verdict } };
    }
    case 'auth': {
      const variant = authVariants[c.variant]!;
      const secret = secretFor(operation, harness.facts);
      const wrong = secret === harness.facts.apiKey ? harness.facts.adminKey : harness.facts.apiKey;
      const headers = { ...(operation.family === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}), ...variant.headers({ right: secret, wrong }) };
      const header = Object.keys(headers).find((name) => name !== 'anthropic-version');
      const path = validRequest(operation, harness.facts, null).path;
      const isPublic = operation.security.length === 0;
      return {
        ...base,
        label: `credentials: ${variant.name}`,
        path,
        headers,
        expected: { verdict: variant.valid || isPublic ? 'either' : 'refuse', family: familyFor(operation, header && schemeForHeader(header)), operation },
      };
    }
    case 'method': {
      const declared = Object.keys(spec.paths[operation.template]!).map((method) => method.toUpperCase());
      const undeclared = methods.filter((m) => !declared.includes(m));
      const method = undeclared[c.index % Math.max(1, undeclared.length)];
      if (!method) return build(operation, { kind: 'auth', variant: 0 });
      return { ...base, label: `method ${method}`, method, expected: { verdict: 'refuse', family: valid.family } };
    }
  }
}

/** A valid JSON body for operations that take one, so only the parameter decides (image edits get none). */
const bodyFor = (operation: Operation) => (operation.json ? validBodiesOf(operation)[0] : undefined);

describe('hostile parameters, credentials and methods get a 4xx in their protocol shape, never a 5xx', () => {
  let validImages = 0;
  for (const operation of operations) {
    test(`${operation.method} ${operation.template}`, { timeout: 60_000 }, async (t) => {
      if (harness.broken) return t.skip(harness.broken);
      const body = bodyFor(operation);
      await fc.assert(
        fc.asyncProperty(change, async (c) => {
          const built = build(operation, c);
          if (operation.operationId === 'createImage' && built.expected.verdict === 'either' && ++validImages > validImageGenerations) return;
          const sendsBody = body !== undefined && built.method === operation.method;
          await harness.check(
            built.label,
            {
              method: built.method,
              path: built.path,
              headers: sendsBody ? { ...built.headers, 'content-type': 'application/json' } : built.headers,
              body: sendsBody ? Buffer.from(JSON.stringify(body)) : undefined,
            },
            built.expected,
          );
        }),
        runs(runsPerOperation),
      );
      await harness.assertHealthy();
    });
  }
});

test(`at least ${minimumCases.parameters} parameter cases were sent, and the gateway is still well`, async () => {
  console.log(`bad-input parameters: ${harness.sent} cases sent`);
  assert.ok(harness.sent >= minimumCases.parameters, `only ${harness.sent} parameter cases were sent`);
  await harness.assertHealthy();
});
