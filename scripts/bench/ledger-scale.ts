// `npm run bench:ledger-scale`: the usage ledger at a team's scale (issue 33). Fills a store through the
// gateway with `--calls` model calls (1,000,000 by default) across three accounts, six keys and three models,
// spreads them over 60 days (by backdating `created_at` in SQL afterwards: the gateway stamps rows with the
// time they are served), then measures each usage report, the export's first byte and whole run, and the
// latency of chat requests sent while a report or an export runs against idle. On SQLite, and on PostgreSQL
// with `--postgres <url>` (a schema of its own, dropped at the end; `--skip-sqlite` for PostgreSQL alone).
// Writes bench/ledger-scale-results.json (or `--output <file>`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent, setGlobalDispatcher } from 'undici';
import { loadSqlite } from '../../server/store/load-sqlite.mjs';
import { rollUpStoredRowsSql } from '../../server/store/roll-up-stored-rows.js';
import { rolledUpSums } from '../../server/usage/usage-rollup.js';
import { benchGatewayConfig } from './bench-gateway-config.js';
import { fillLedgerThroughGateway, ledgerScaleModels } from './fill-ledger-through-gateway.js';
import { describeMachine } from './machine-info.js';
import { repoRoot } from './repo-root.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { percentile, round } from './stats.js';

const outputFile = 'bench/ledger-scale-results.json';
const dayMs = 86_400_000;
const spreadDays = 60;
const adminKey = `bench-admin-${process.pid}`;

// Idle connections are dropped after a second, before the gateway's own 5 s keep-alive closes them from its
// side: otherwise the first request after a long backdate can go out on a socket the gateway is closing.
setGlobalDispatcher(new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 }));

interface Latency {
  medianMs: number;
  p99Ms: number;
  count: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { calls: { type: 'string', default: '1000000' }, postgres: { type: 'string' }, 'skip-sqlite': { type: 'boolean', default: false }, output: { type: 'string', default: outputFile } },
  });
  const calls = Number(values.calls);
  const upstream = await startBenchServer('upstream');
  const results = [];
  try {
    if (!values['skip-sqlite']) results.push(await measureOn('SQLite', upstream.port, calls));
    if (values.postgres) {
      const schema = await privateSchema(values.postgres);
      try {
        results.push(await measureOn('PostgreSQL', upstream.port, calls, schema));
      } finally {
        await schema.drop();
      }
    }
  } finally {
    await upstream.stop();
  }
  const report = { machine: describeMachine(), calls, spreadDays, results };
  const outputPath = resolve(repoRoot, values.output);
  mkdirSync(dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${JSON.stringify(results, null, 2)}\n\nWrote ${values.output}`);
}

async function measureOn(store: 'SQLite' | 'PostgreSQL', upstreamPort: number, calls: number, schema?: { url: string; client: pg.Client }) {
  const gateway = await startGatewayProcess(upstreamPort, { config: scaleConfig(upstreamPort), databaseUrl: schema?.url, adminKey });
  try {
    const keys = await createKeys(gateway);
    console.log(`[${store}] filling ${calls} calls through the gateway`);
    const fillStarted = performance.now();
    const served = await fillLedgerThroughGateway(gateway, keys.map((key) => key.secret), calls);
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    await waitForRows(gateway, served);
    console.log(`[${store}] ${served} rows stored; backdating them over ${spreadDays} days`);
    const backdateSeconds = await backdate(store, gateway, schema?.client);
    // On SQLite the UPDATE blocked this process's event loop: let it hear of the keep-alive connections the
    // gateway closed meanwhile before the next request picks one of them ("other side closed").
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const to = Math.floor(Date.now() / 1000) + 1;
    const from = to - (spreadDays + 1) * 86_400;
    const range = `from=${from}&to=${to}`;
    const account = keys[0];
    const reports: Record<string, { path: string; key: string }> = {
      'admin by day': { path: `/admin/v1/usage?${range}&group_by=day`, key: adminKey },
      'admin by model': { path: `/admin/v1/usage?${range}&group_by=model`, key: adminKey },
      'admin one account by day': { path: `/admin/v1/usage?${range}&account_id=${account.accountId}`, key: adminKey },
      'account by day': { path: `/v1/usage?${range}&group_by=day`, key: account.secret },
      'account by model': { path: `/v1/usage?${range}&group_by=model`, key: account.secret },
      'one key by day': { path: `/v1/usage?${range}&key_id=${account.keyId}`, key: account.secret },
    };
    const reportTotals = await totalRequests(gateway, reports['admin by day']);
    const reportMs: Record<string, number> = {};
    for (const [name, report] of Object.entries(reports)) {
      const times = [];
      for (let attempt = 0; attempt < 3; attempt++) times.push((await timed(() => get(gateway, report.path, report.key))).ms);
      reportMs[name] = round(percentile(times, 50), 1);
      console.log(`[${store}] ${name}: ${reportMs[name]} ms (median of 3)`);
    }

    const idle = await chatLatency(gateway, keys[1].secret, async () => {});
    const duringReports = await chatLatency(gateway, keys[1].secret, async (stop) => {
      while (!stop.aborted) await get(gateway, reports['admin by day'].path, adminKey);
    });
    let exportRun = { firstByteMs: 0, rows: 0, seconds: 0 };
    const duringExport = await chatLatency(gateway, keys[1].secret, async (stop) => {
      while (!stop.aborted) exportRun = await exportAll(gateway, range);
    });
    console.log(`[${store}] chat idle ${idle.medianMs} ms, during reports ${duringReports.medianMs} ms, during export ${duringExport.medianMs} ms`);
    return {
      store,
      served,
      reportTotals,
      totalsMatch: reportTotals === served,
      fillSeconds: round(fillSeconds, 1),
      backdateSeconds: round(backdateSeconds, 1),
      reportMs,
      export: exportRun,
      chat: { idle, duringReports, duringExport },
    };
  } catch (error) {
    console.error(`[${store}] gateway said:`, JSON.stringify(gateway.logSummary(), null, 2));
    throw error;
  } finally {
    await gateway.stop();
  }
}

function scaleConfig(upstreamPort: number): string {
  const models = ledgerScaleModels.map((id) => `  - id: ${id}\n    provider: up\n    upstream_model: bench-chat\n    capabilities: [chat, streaming]\n`).join('');
  return `${benchGatewayConfig(upstreamPort)}${models}`;
}

/** Three accounts of two keys each, through the admin API. */
async function createKeys(gateway: GatewayProcess): Promise<Array<{ accountId: string; keyId: string; secret: string }>> {
  const keys = [];
  for (let account = 0; account < 3; account++) {
    const { id: accountId } = (await post(gateway, '/admin/v1/accounts', { name: `scale-${account}` })) as { id: string };
    for (let key = 0; key < 2; key++) {
      const created = (await post(gateway, `/admin/v1/accounts/${accountId}/keys`, { name: `scale-${account}-${key}` })) as { id: string; key: string };
      keys.push({ accountId, keyId: created.id, secret: created.key });
    }
  }
  return keys;
}

/** Waits until the ledger holds every served call's row (the gateway writes them in batches, each second). */
async function waitForRows(gateway: GatewayProcess, served: number): Promise<void> {
  const report = { path: '/admin/v1/usage?from=0&group_by=model', key: adminKey };
  for (let stored = 0; stored < served; stored = await totalRequests(gateway, report)) await new Promise((resolve) => setTimeout(resolve, 2_000));
}

/**
 * Spreads every row's `created_at` uniformly over the last {@link spreadDays} days, in one UPDATE, and rolls the
 * rows up again for their new hours; returns seconds taken.
 */
async function backdate(store: 'SQLite' | 'PostgreSQL', gateway: GatewayProcess, client?: pg.Client): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  if (store === 'PostgreSQL') {
    await client!.query('UPDATE usage_records SET created_at = $1::bigint - floor(random() * $2)::bigint', [now, spreadDays * dayMs]);
    await client!.query('DELETE FROM usage_rollups');
    await client!.query(rollUpStoredRowsSql(rolledUpSums));
    await client!.query('VACUUM ANALYZE usage_records');
  } else {
    const SQLite = await loadSqlite();
    const sqlite = new SQLite(join(gateway.dataDir, 'gateway.sqlite'));
    sqlite.pragma('busy_timeout = 10000');
    sqlite.prepare('UPDATE usage_records SET created_at = ? - (abs(random()) % ?)').run(now, spreadDays * dayMs);
    sqlite.exec('DELETE FROM usage_rollups');
    sqlite.exec(rollUpStoredRowsSql(rolledUpSums));
    sqlite.exec('ANALYZE');
    sqlite.close();
  }
  return (performance.now() - started) / 1000;
}

async function totalRequests(gateway: GatewayProcess, report: { path: string; key: string }): Promise<number> {
  const { data } = (await get(gateway, report.path, report.key)) as { data: Array<{ requests: number }> };
  return data.reduce((sum, bucket) => sum + bucket.requests, 0);
}

/** Sequential chat requests for five seconds while `load` runs (told to stop through its signal). */
async function chatLatency(gateway: GatewayProcess, key: string, load: (stop: AbortSignal) => Promise<void>): Promise<Latency> {
  const stop = new AbortController();
  const running = load(stop.signal);
  // The load's first query is under way before the first chat.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const latencies = [];
  const until = performance.now() + 5_000;
  while (performance.now() < until) {
    const { ms } = await timed(() => post(gateway, '/v1/chat/completions', { model: ledgerScaleModels[0], messages: [{ role: 'user', content: 'hi' }] }, key));
    latencies.push(ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stop.abort();
  await running;
  return { medianMs: round(percentile(latencies, 50), 2), p99Ms: round(percentile(latencies, 99), 2), count: latencies.length };
}

/** The whole CSV export of the range, read as fast as the client can; its first byte's time, rows and duration. */
async function exportAll(gateway: GatewayProcess, range: string): Promise<{ firstByteMs: number; rows: number; seconds: number }> {
  const started = performance.now();
  const response = await fetch(`${gateway.origin}/admin/v1/usage/records?${range}`, { headers: { authorization: `Bearer ${adminKey}`, accept: 'text/csv' } });
  let firstByteMs = 0;
  let lineBreaks = 0;
  for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
    firstByteMs ||= performance.now() - started;
    // indexOf is native: a byte loop in JS here would slow the bench's own event loop, and its chat timings.
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lineBreaks++;
  }
  return { firstByteMs: round(firstByteMs, 1), rows: lineBreaks - 1, seconds: round((performance.now() - started) / 1000, 1) };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function get(gateway: GatewayProcess, path: string, key: string): Promise<unknown> {
  const response = await fetch(`${gateway.origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function post(gateway: GatewayProcess, path: string, body: unknown, key = adminKey): Promise<unknown> {
  const response = await fetch(`${gateway.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A schema of the bench's own, so its rows never mix with anything else in that database. */
async function privateSchema(url: string): Promise<{ url: string; client: pg.Client; drop(): Promise<void> }> {
  const schema = `bench_scale_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const scoped = `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  const client = new pg.Client({ connectionString: scoped });
  await client.connect();
  return {
    url: scoped,
    client,
    drop: async () => {
      await client.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
