// Renders generated/operations.ts: the route table and the OperationHandlers interface. Because the server
// declares `const handlers: OperationHandlers = {...}`, an operation in the spec without a handler is a
// compile error.

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `/v1beta/models/{model}:generateContent` → `/v1beta/models/:model\:generateContent` (path-to-regexp 8). */
export function toExpressPath(openApiPath) {
  return openApiPath
    .split(/(\{[^}]+\})/)
    .map((piece) => (piece.startsWith('{') ? `:${piece.slice(1, -1)}` : piece.replace(/[:()[\]?+!*{}\\]/g, '\\$&')))
    .join('');
}

function securityKind(spec, operation) {
  const requirements = operation.security ?? spec.security ?? [];
  if (requirements.length === 0) return 'public';
  if (requirements.some((requirement) => 'adminAuth' in requirement)) return 'admin';
  return 'key';
}

export function listOperations(spec) {
  const operations = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      if (!operation['x-protocol']) throw new Error(`${operation.operationId} has no x-protocol`);
      operations.push({
        operationId: operation.operationId,
        method,
        path,
        expressPath: toExpressPath(path),
        protocol: operation['x-protocol'],
        security: securityKind(spec, operation),
      });
    }
  }
  return operations;
}

export function renderOperations(spec) {
  const operations = listOperations(spec);
  const routes = operations
    .map((op) => `  { operationId: '${op.operationId}', method: '${op.method}', path: '${op.path}', expressPath: ${JSON.stringify(op.expressPath)}, protocol: '${op.protocol}', security: '${op.security}' },`)
    .join('\n');
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
export type OperationHandler<O extends OperationId> = (req: TypedRequest<O>, res: Response<SuccessBody<O>>) => Promise<void> | void;

/** One handler per operationId in the spec. */
export interface OperationHandlers {
${handlers}
}

export type ProtocolFamily = 'openai' | 'anthropic' | 'gemini' | 'admin';

export interface OperationRoute {
  operationId: OperationId;
  method: 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
  /** The path as the spec writes it. */
  path: string;
  /** The same path as an Express 5 route. */
  expressPath: string;
  protocol: ProtocolFamily;
  security: 'public' | 'key' | 'admin';
}

export const operationRoutes: readonly OperationRoute[] = [
${routes}
];
`;
}
