import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operationRoutes } from '../../generated/operations.js';
import type { RoutedCallDependencies } from '../core/route-call.js';
import type { ProtocolDependencies } from './protocol-definition.js';
import { errorBodyRenderers, modelListRenderers, protocolDefinitions, protocolHandlers, protocolOfOperation } from './registry.js';

/** Building handlers only keeps their dependencies for later; none is called here. */
const unused = {} as never;
const deps: ProtocolDependencies = { ...(unused as RoutedCallDependencies), registry: unused, router: unused, responses: unused, conversations: unused, responseRetentionSeconds: 1, images: unused, compactionSeal: unused, batches: unused };

describe('the client protocol registry', () => {
  it('has a definition for every protocol the spec names, and none it does not', () => {
    const named = new Set(operationRoutes.flatMap((route) => (route.metering ? [route.metering.ledgerProtocol] : [])));
    assert.deepEqual(new Set(protocolDefinitions.map((definition) => definition.name)), named);
  });

  it("gives each model-call operation its protocol's definition, of the operation's family", () => {
    for (const route of operationRoutes.filter((candidate) => candidate.metering)) {
      const definition = protocolOfOperation(route);
      assert.equal(definition?.name, route.metering!.ledgerProtocol, route.operationId);
      assert.equal(definition.family, route.protocol, route.operationId);
    }
  });

  it("handles every operation of a protocol's family that reaches a model, each in one protocol", () => {
    const handlers: Partial<Record<string, unknown>> = protocolHandlers(deps);
    for (const route of operationRoutes.filter((candidate) => candidate.metering)) {
      assert.equal(typeof handlers[route.operationId], 'function', `${route.operationId} has no handler`);
    }
    for (const operationId of Object.keys(handlers)) assert.ok(operationRoutes.some((route) => route.operationId === operationId), `${operationId} is no operation of the spec`);
  });

  it('serves all twenty Gemini action operations, each by the handler of the action its path ends in', () => {
    const handlers = protocolHandlers(deps) as Record<string, unknown>;
    const actions = operationRoutes.filter((route) => route.protocol === 'gemini' && /:[a-zA-Z]+$/.test(route.path));
    assert.equal(actions.length, 20);
    for (const route of actions) {
      const action = route.path.split(':').at(-1)!;
      assert.equal(handlers[route.operationId], handlers[action], `${route.operationId} is served by ${action}'s handler`);
    }
  });

  it('renders errors and model lists for every family of the spec', () => {
    const families = new Set(operationRoutes.map((route) => route.protocol));
    for (const family of families) assert.equal(typeof errorBodyRenderers[family], 'function', family);
    for (const family of [...families].filter((family) => family !== 'admin')) assert.ok(modelListRenderers[family as keyof typeof modelListRenderers], family);
  });

  it('declares, for each protocol that a model call reads field by field, a wire scanner', () => {
    for (const name of ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini']) {
      assert.ok(protocolDefinitions.find((definition) => definition.name === name)?.wireScanner, name);
    }
  });
});
