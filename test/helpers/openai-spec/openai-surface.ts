// Which schema of OpenAI's published spec a gateway answer must match: the gateway operation the request
// reached (found by the front door's own OperationTable, so the oracle and the gateway agree on it), then
// that operation's published response for the status and media type.
import type { IncomingMessage } from 'node:http';
import { operationRoutes, type OperationId } from '../../../generated/operations.js';
import { familyOfRequest } from '../../../server/http/front-door/family-of-request.js';
import { OperationTable } from '../../../server/http/front-door/operation-table.js';
import { publishedSpec } from './published-spec.js';

/** The gateway operations that are OpenAI's, and where OpenAI's document has them. */
export const publishedOperations: Partial<Record<OperationId, { method: string; path: string }>> = {
  createChatCompletion: { method: 'post', path: '/chat/completions' },
  listModels: { method: 'get', path: '/models' },
  retrieveModel: { method: 'get', path: '/models/{model}' },
  createResponse: { method: 'post', path: '/responses' },
  getResponse: { method: 'get', path: '/responses/{response_id}' },
  deleteResponse: { method: 'delete', path: '/responses/{response_id}' },
  listResponseInputItems: { method: 'get', path: '/responses/{response_id}/input_items' },
  createConversation: { method: 'post', path: '/conversations' },
  getConversation: { method: 'get', path: '/conversations/{conversation_id}' },
  updateConversation: { method: 'post', path: '/conversations/{conversation_id}' },
  deleteConversation: { method: 'delete', path: '/conversations/{conversation_id}' },
  listConversationItems: { method: 'get', path: '/conversations/{conversation_id}/items' },
  createConversationItems: { method: 'post', path: '/conversations/{conversation_id}/items' },
  getConversationItem: { method: 'get', path: '/conversations/{conversation_id}/items/{item_id}' },
  deleteConversationItem: { method: 'delete', path: '/conversations/{conversation_id}/items/{item_id}' },
  createImage: { method: 'post', path: '/images/generations' },
  createImageEdit: { method: 'post', path: '/images/edits' },
  createFile: { method: 'post', path: '/files' },
  listFiles: { method: 'get', path: '/files' },
  retrieveFile: { method: 'get', path: '/files/{file_id}' },
  deleteFile: { method: 'delete', path: '/files/{file_id}' },
  downloadFile: { method: 'get', path: '/files/{file_id}/content' },
  createBatch: { method: 'post', path: '/batches' },
  listBatches: { method: 'get', path: '/batches' },
  retrieveBatch: { method: 'get', path: '/batches/{batch_id}' },
  cancelBatch: { method: 'post', path: '/batches/{batch_id}/cancel' },
};

export type MediaType = 'application/json' | 'text/event-stream';

let table: OperationTable | undefined;

/**
 * The OpenAI operation a request reaches and is answered in OpenAI's shapes by, if any: not a gateway-only
 * path (`/v1/keys`), nor `GET /v1/models` asked by an Anthropic or Gemini SDK (answered in their shapes).
 */
export function openAiOperationOf(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): OperationId | undefined {
  const route = (table ??= new OperationTable(operationRoutes)).match(req.method ?? 'GET', req.url ?? '/')?.route;
  if (!route || !(route.operationId in publishedOperations) || familyOfRequest(route, req) !== 'openai') return undefined;
  return route.operationId;
}

/**
 * The schema name an answer of `operationId` with `status` and `mediaType` must match, or undefined where
 * OpenAI's document gives none (a `200` of `DELETE /responses/{id}`). Every error answer must be an
 * `ErrorResponse` (`{error: {message, type, param, code}}`): the shape the document gives for the 429s of
 * these operations and that OpenAI's SDKs read every error as. (The document's one other error, the 404
 * of `DELETE /responses/{id}`, names the inner `Error` alone, which no OpenAI answer is.)
 */
export function publishedSchemaFor(operationId: OperationId, status: number, mediaType: MediaType): string | undefined {
  if (status >= 400) return mediaType === 'application/json' ? 'ErrorResponse' : undefined;
  const where = publishedOperations[operationId];
  if (!where) return undefined;
  const spec = publishedSpec();
  const operation = spec.paths[where.path]?.[where.method];
  if (!operation) throw new Error(`OpenAI's published spec has no ${where.method.toUpperCase()} ${where.path}`);
  const ref = operation.responses?.[String(status)]?.content?.[mediaType]?.schema?.$ref;
  return ref?.replace('#/components/schemas/', '');
}
