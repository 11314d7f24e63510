import { operationRoutes, type OperationHandlers, type OperationRoute, type ProtocolFamily } from '../../generated/operations.js';
import type { ClientProtocolName } from '../core/client-protocol.js';
import type { GatewayError } from '../core/gateway-error.js';
import { anthropicMessagesDefinition } from './anthropic-messages/index.js';
import { geminiDefinition } from './gemini/index.js';
import { openAIChatDefinition } from './openai-chat/index.js';
import { openAIEmbeddingsDefinition } from './openai-embeddings/index.js';
import { openAIImagesDefinition } from './openai-images/index.js';
import { openAIResponsesDefinition } from './openai-responses/index.js';
import type { ClientProtocolDefinition, ModelListRenderer, ProtocolDependencies } from './protocol-definition.js';

/**
 * Every client protocol's definition, from its folder: adding a protocol is its folder and one entry here.
 * Each table about client protocols (the operations' handlers, error bodies, model lists, and what the
 * request context tells the layers below) derives from this list. registry.test.ts checks that it covers
 * every protocol the spec names.
 */
const definitions = [
  openAIChatDefinition,
  openAIResponsesDefinition,
  anthropicMessagesDefinition,
  geminiDefinition,
  openAIImagesDefinition,
  openAIEmbeddingsDefinition,
] as const;
export const protocolDefinitions: readonly ClientProtocolDefinition[] = definitions;

/** The operationIds each definition's `operations` returns (each keeps its precise type: `satisfies`). */
type OperationsOf<D> = D extends { operations(deps: ProtocolDependencies): infer H } ? keyof H : never;
/** The operations the client protocols handle, so that create-handlers.ts is checked to handle the rest. */
export type ProtocolOperationId = OperationsOf<(typeof definitions)[number]>;

const definitionsByName = new Map<string, ClientProtocolDefinition>(protocolDefinitions.map((definition) => [definition.name, definition]));
if (definitionsByName.size !== protocolDefinitions.length) throw new Error('two client protocol definitions share a name');

/** The definition of a protocol the spec names (`x-metering.ledgerProtocol`). */
export function protocolDefinition(name: ClientProtocolName): ClientProtocolDefinition {
  const definition = definitionsByName.get(name);
  if (!definition) throw new Error(`no client protocol definition is named '${name}' (protocols/registry.ts)`);
  return definition;
}

/**
 * The client protocol of an operation: the one its `x-metering` names; none for the operations that are
 * no model call (admin, health, model lists, stored responses). The front door puts it in the request
 * context, where the layers below read it.
 */
export function protocolOfOperation(route: OperationRoute): ClientProtocolDefinition | undefined {
  return route.metering && protocolDefinition(route.metering.ledgerProtocol);
}

/** Every protocol's operations' handlers, by operationId. */
export function protocolHandlers(deps: ProtocolDependencies): Pick<OperationHandlers, ProtocolOperationId> {
  const handlers: Partial<OperationHandlers> = {};
  for (const definition of protocolDefinitions) {
    for (const [operationId, handler] of Object.entries(definition.operations(deps))) {
      if (operationId in handlers) throw new Error(`two client protocols handle the operation '${operationId}'`);
      Object.assign(handlers, { [operationId]: handler });
    }
  }
  // The loop copied every definition's operations: ProtocolOperationId is the union of their keys.
  return handlers as Pick<OperationHandlers, ProtocolOperationId>;
}

/** The error body of each family: its protocols' own; the admin API answers in OpenAI's shape. */
export const errorBodyRenderers: Readonly<Record<ProtocolFamily, (error: GatewayError) => unknown>> = {
  ...byFamily((definition) => definition.renderError),
  admin: byFamily((definition) => definition.renderError).openai,
};

/** How `GET /v1/models` answers each family, from the protocol of the family that declares it. */
export const modelListRenderers: Readonly<Record<Exclude<ProtocolFamily, 'admin'>, ModelListRenderer>> = byFamily((definition) => definition.modelList);

/** One value per family, from the protocols of the family that declare one; each family must have one, and only one kind. */
function byFamily<T>(valueOf: (definition: ClientProtocolDefinition) => T | undefined): Record<Exclude<ProtocolFamily, 'admin'>, T> {
  const values = new Map<string, T>();
  for (const definition of protocolDefinitions) {
    const value = valueOf(definition);
    if (value === undefined) continue;
    const known = values.get(definition.family);
    if (known !== undefined && known !== value) throw new Error(`the ${definition.family} family's protocols declare two different values where one is expected`);
    values.set(definition.family, value);
  }
  const families = new Set(operationRoutes.map((route) => route.protocol).filter((family) => family !== 'admin'));
  const missing = [...families].filter((family) => !values.has(family));
  if (missing.length > 0) throw new Error(`no client protocol of the ${missing.join(', ')} family declares it`);
  return Object.fromEntries(values) as Record<Exclude<ProtocolFamily, 'admin'>, T>;
}
