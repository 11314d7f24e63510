import { unwrap, type components, type GatewayClient } from '../../index.js';
import type { View } from '../session.js';
import { blobOrThrow } from './blob-result.js';

type UsageReport = components['schemas']['UsageReport'];
type UsageRecordList = components['schemas']['UsageRecordList'];

/** What the usage views filter on; `account_id` only reaches the admin API (an account sees only itself). */
export interface UsageFilter {
  /** Unix seconds. */
  from: number;
  account_id?: string;
}

/** The usage report grouped by UTC day or by model, from `/v1/usage` or `/admin/v1/usage`. */
export async function fetchUsageReport(client: GatewayClient, view: View, filter: UsageFilter, group_by: 'day' | 'model'): Promise<UsageReport> {
  if (view === 'admin') return unwrap(await client.GET('/admin/v1/usage', { params: { query: { ...filter, group_by } } }));
  return unwrap(await client.GET('/v1/usage', { params: { query: { from: filter.from, group_by } } }));
}

/** One page of the newest usage records; pass the previous page's `next_before` as `before` to read on. */
export async function fetchUsageRecords(client: GatewayClient, view: View, filter: UsageFilter, before?: string): Promise<UsageRecordList> {
  const limit = 50;
  if (view === 'admin') return unwrap(await client.GET('/admin/v1/usage/records', { params: { query: { ...filter, limit, before } } }));
  return unwrap(await client.GET('/v1/usage/records', { params: { query: { from: filter.from, limit, before } } }));
}

/**
 * Every matching record as CSV: the records endpoint answers `Accept: text/csv` with all rows. A plain
 * link cannot send the key header, so the file is fetched here and handed to the browser as a Blob.
 */
export async function fetchUsageCsv(client: GatewayClient, view: View, filter: UsageFilter): Promise<Blob> {
  const options = { headers: { Accept: 'text/csv' }, parseAs: 'blob' as const };
  const result =
    view === 'admin'
      ? await client.GET('/admin/v1/usage/records', { ...options, params: { query: filter } })
      : await client.GET('/v1/usage/records', { ...options, params: { query: { from: filter.from } } });
  return blobOrThrow(result);
}
