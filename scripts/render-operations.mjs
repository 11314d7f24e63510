// Renders generated/operations.ts: the OperationHandlers interface and the operation table the gateway's
// front door matches every request against (server/http/front-door/). Everything the table says comes from
// the spec: the path template, `x-protocol`, `x-protocol-from-client`, the security requirement and its
// credentials, `x-metering`, the body's media type and `x-allow-slashes` on path parameters. Because the
// server declares `const handlers: OperationHandlers = {...}`, an operation in the spec without a handler
// is a compile error.

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const families = ['openai', 'anthropic', 'gemini', 'admin'];
const meteringKinds = ['generation', 'counting', 'embedding'];
const ledgerProtocols = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'openai-images', 'openai-embeddings'];

/** Follows a `#/components/...` reference inside the spec. */
function deref(spec, node) {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((parent, key) => parent?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], spec);
  }
  return current;
}

function securityKind(requirements) {
  if (requirements.length === 0) return 'public';
  if (requirements.some((requirement) => 'adminAuth' in requirement)) return 'admin';
  return 'key';
}

/** Where each accepted credential is read, from the security schemes the operation lists, in its order. */
function credentialsOf(spec, requirements, where) {
  return requirements.flatMap((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = spec.components?.securitySchemes?.[name];
      if (!scheme) throw new Error(`${where}: unknown security scheme ${name}`);
      if (scheme.type === 'http' && scheme.scheme === 'bearer') return { in: 'header', name: 'authorization', bearer: true };
      if (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query')) {
        return { in: scheme.in, name: scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name, bearer: false };
      }
      throw new Error(`${where}: security scheme ${name} is of a kind the gateway does not read`);
    }),
  );
}

function meteringOf(operation, where) {
  const metering = operation['x-metering'];
  if (metering === 'none') return undefined;
  if (metering === undefined) throw new Error(`${where} has no x-metering (say none, or how it is metered)`);
  const { kind, 'ledger-protocol': ledgerProtocol, 'model-from': modelFrom } = metering;
  if (!meteringKinds.includes(kind)) throw new Error(`${where}: x-metering.kind must be one of ${meteringKinds.join(', ')}`);
  if (!ledgerProtocols.includes(ledgerProtocol)) throw new Error(`${where}: x-metering.ledger-protocol must be one of ${ledgerProtocols.join(', ')}`);
  if (modelFrom !== 'body' && modelFrom !== 'path') throw new Error(`${where}: x-metering.model-from must be body or path`);
  return { kind, ledgerProtocol, modelFrom };
}

function bodyKindOf(spec, operation) {
  const body = deref(spec, operation.requestBody);
  if (!body) return 'none';
  if (body.content?.['application/json']) return 'json';
  if (body.content?.['multipart/form-data']) return 'multipart';
  throw new Error(`${operation.operationId}: a request body of a media type the gateway does not read`);
}

/**
 * The template as segments: literal text, or a parameter with the literal text that follows it in the
 * same segment (`{model}:generateContent`). A parameter marked `x-allow-slashes` takes every segment up to
 * that text, so it must be the template's last.
 */
function segmentsOf(path, parameters, where) {
  const pieces = path.split('/').filter((piece) => piece !== '');
  return pieces.map((piece, index) => {
    const match = /^\{([^}]+)\}(.*)$/.exec(piece);
    if (!match) {
      if (piece.includes('{')) throw new Error(`${where}: a parameter must start its path segment (${piece})`);
      return { literal: piece };
    }
    const [, name, suffix] = match;
    if (suffix.includes('{')) throw new Error(`${where}: one parameter per path segment (${piece})`);
    const parameter = parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    if (!parameter) throw new Error(`${where}: the path parameter {${name}} is not declared`);
    const slashes = parameter['x-allow-slashes'] === true;
    if (slashes && index !== pieces.length - 1) throw new Error(`${where}: {${name}} allows slashes, so it must be in the last segment`);
    return { param: name, suffix, slashes };
  });
}

export function listOperations(spec) {
  const operations = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!operation.operationId) throw new Error(`${where} has no operationId`);
      if (!families.includes(operation['x-protocol'])) throw new Error(`${operation.operationId}: x-protocol must be one of ${families.join(', ')}`);
      const requirements = operation.security ?? spec.security ?? [];
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => deref(spec, parameter));
      operations.push({
        operationId: operation.operationId,
        method,
        path,
        segments: segmentsOf(path, parameters, where),
        protocol: operation['x-protocol'],
        protocolFromClient: operation['x-protocol-from-client'] === true,
        security: securityKind(requirements),
        credentials: credentialsOf(spec, requirements, where),
        metering: meteringOf(operation, where),
        body: bodyKindOf(spec, operation),
      });
    }
  }
  return operations;
}

export function renderOperations(spec) {
  const operations = listOperations(spec);
  const routes = operations.map((op) => `  ${JSON.stringify(op)},`).join('\n');
  const handlers = operations.map((op) => `  ${op.operationId}: OperationHandler<'${op.operationId}'>;`).join('\n');
  return `import type { Request, Response } from 'express';
import type { operations } from './api.js';

export type OperationId = keyof operations;

type Content<T> = T extends { content: infer C } ? C[keyof C] : undefined;
type RequestBodyOf<O extends OperationId> = operations[O] extends { requestBody?: infer B } ? Content<NonNullable<B>> : undefined;
type ParametersOf<O extends OperationId, In extends 'path' | 'query'> = operations[O] extends { parameters: infer P }
  ? P extends Record<In, infer V> ? (V extends Record<string, unknown> ? V : Record<string, never>) : Record<string, never>
  : Record<string, never>;
type SuccessOf<O extends OperationId> = operations[O]['responses'] extends infer R
  ? 200 extends keyof R ? R[200] : 201 extends keyof R ? R[201] : never
  : never;
/** The JSON body of the operation's success response (unknown for non-JSON successes such as files). */
export type SuccessBody<O extends OperationId> = SuccessOf<O> extends { content: { 'application/json': infer B } } ? B : unknown;
export type RequestBody<O extends OperationId> = RequestBodyOf<O>;
export type PathParams<O extends OperationId> = ParametersOf<O, 'path'>;
export type QueryParams<O extends OperationId> = ParametersOf<O, 'query'>;

export type TypedRequest<O extends OperationId> = Request<PathParams<O>, SuccessBody<O>, RequestBody<O>, QueryParams<O>>;
/**
 * The type of what the front door learnt of a request, filled in by the server: server/core/request-context.ts
 * adds \`context: RequestContext\` to this interface (module augmentation), so that generated code imports no
 * server code and the layers point one way (.dependency-cruiser.cjs).
 */
export interface HandlerContextType {}
type HandlerContext = HandlerContextType extends { context: infer C } ? C : never;
/** An operation's handler: the request, the response, and what the front door learnt of the request. */
export type OperationHandler<O extends OperationId> = (req: TypedRequest<O>, res: Response<SuccessBody<O>>, context: HandlerContext) => Promise<void> | void;

/** One handler per operationId in the spec. */
export interface OperationHandlers {
${handlers}
}

export type ProtocolFamily = 'openai' | 'anthropic' | 'gemini' | 'admin';

/** One segment of a path template: literal text, or a parameter and the literal text after it in its segment. */
export type PathSegment = { literal: string } | { param: string; suffix: string; slashes: boolean };

/** Where a credential is read: a header (lower-cased name; \`bearer\` when it is \`Authorization: Bearer\`) or a query parameter. */
export interface Credential {
  in: 'header' | 'query';
  name: string;
  bearer: boolean;
}

/** How a model call is metered (the spec's \`x-metering\`). */
export interface Metering {
  /**
   * \`generation\` consumes tokens and costs; \`embedding\` consumes and costs input tokens only (it generates
   * none, so no output is reserved); \`counting\` is a request without tokens or cost.
   */
  kind: 'generation' | 'counting' | 'embedding';
  /** What the usage ledger calls the protocol. */
  ledgerProtocol: 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'openai-images' | 'openai-embeddings';
  /** Where the model ID is: the body's \`model\` or the \`{model}\` path parameter. */
  modelFrom: 'body' | 'path';
}

export interface OperationRoute {
  operationId: OperationId;
  method: 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
  /** The path as the spec writes it. */
  path: string;
  segments: readonly PathSegment[];
  /** The error shape and credentials of the family (\`x-protocol\`). */
  protocol: ProtocolFamily;
  /** Every SDK calls this path: the family is told by how the client authenticates (\`x-protocol-from-client\`). */
  protocolFromClient: boolean;
  security: 'public' | 'key' | 'admin';
  /** Where a key may be presented, in the spec's order; empty for public operations. */
  credentials: readonly Credential[];
  /** Absent for operations that are not model calls (\`x-metering: none\`). */
  metering?: Metering;
  body: 'json' | 'multipart' | 'none';
}

export const operationRoutes: readonly OperationRoute[] = [
${routes}
];
`;
}
