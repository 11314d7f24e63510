import { unwrap, type components, type GatewayClient } from '../../index.js';
import type { View } from '../session.js';
import { blobOrThrow } from './blob-result.js';

export type BatchOverview = components['schemas']['BatchOverview'];
type BatchOverviewList = components['schemas']['BatchOverviewList'];

/** Batches per page. */
const pageSize = 50;

/**
 * A page of batches of every kind, newest first, older than `after`: the account's (`/v1/account/batches`), or
 * for the admin every account's or `accountId`'s (`/admin/v1/batches`).
 */
export async function fetchBatches(client: GatewayClient, view: View, accountId: string, after?: string): Promise<BatchOverviewList> {
  const query = { limit: pageSize, ...(after ? { after } : {}) };
  if (view === 'admin') return unwrap(await client.GET('/admin/v1/batches', { params: { query: { ...query, ...(accountId ? { account_id: accountId } : {}) } } }));
  return unwrap(await client.GET('/v1/account/batches', { params: { query } }));
}

/** An ended Anthropic batch's results (JSONL), through its own API with the session's key in the header. */
export async function fetchBatchResults(client: GatewayClient, batchId: string): Promise<Blob> {
  return blobOrThrow(await client.GET('/v1/messages/batches/{message_batch_id}/results', { params: { path: { message_batch_id: batchId } }, parseAs: 'blob' }));
}

/** A file's content (an OpenAI batch's output or error file), with the session's key in the header. */
export async function fetchFileContent(client: GatewayClient, fileId: string): Promise<Blob> {
  return blobOrThrow(await client.GET('/v1/files/{file_id}/content', { params: { path: { file_id: fileId } }, parseAs: 'blob' }));
}
