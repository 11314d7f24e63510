import type { components } from '../../../generated/api.js';
import { usageColumns, type UsageRecord } from '../../usage/usage-record.js';

/** A usage record as the usage API shows it (the spec's UsageRecord): a JSON page's item, an export's line. */
export type ApiUsageRecord = components['schemas']['UsageRecord'];

/**
 * What the API shows of a ledger record: every field but the deployment, for which upstream deployment
 * served a request is the operator's business, not the contract's. The JSON pages and both exports map
 * their records through this one function.
 */
export function toApiUsageRecord({ deployment: _deployment, ...record }: UsageRecord): ApiUsageRecord {
  return record;
}

/**
 * The fields of an API record, in order: the ledger's columns (usage-record.ts) but the deployment. The CSV
 * export's columns, so that a column the ledger gains is exported as soon as the spec's record has it.
 */
export const apiUsageFields = usageColumns.filter((column): column is keyof ApiUsageRecord => column !== 'deployment');

// The type check fails here unless the spec's UsageRecord has exactly the ledger record's fields but the
// deployment: a column added to one and not to the other, which the mapping above would pass on unchecked or
// the CSV export would miss, is caught before it ships.
type SameFields<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const specRecordHasTheLedgersFields: SameFields<ApiUsageRecord, Omit<UsageRecord, 'deployment'>> = true;
void specRecordHasTheLedgersFields;
