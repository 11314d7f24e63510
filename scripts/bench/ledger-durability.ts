// `npm run bench:ledger`: what `ledger.durability: sync` costs against the default `batch`. Two gateways,
// one with each setting, on the same store, take turns under the same load (load-targets-in-turn.ts):
// scenarios (a) and (b) at 50 connections and (a) at one. On SQLite, and on PostgreSQL with `--postgres <url>`
// (a schema of its own, dropped at the end). Writes bench/ledger-durability-results.json. See bench/README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchGatewayConfig } from './bench-gateway-config.js';
import { loadTargetsInTurn } from './load-targets-in-turn.js';
import { describeMachine } from './machine-info.js';
import type { LoadSummary } from './measure-throughput.js';
import { repoRoot } from './repo-root.js';
import { scenarios, type ScenarioId } from './scenarios.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess } from './start-gateway-process.js';
import { round } from './stats.js';

const outputFile = 'bench/ledger-durability-results.json';
const durabilities = ['batch', 'sync'] as const;

interface LoadSettings {
  connections: number;
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
}

interface Comparison {
  store: 'SQLite' | 'PostgreSQL';
  scenario: ScenarioId;
  connections: number;
  batch: LoadSummary;
  sync: LoadSummary;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      duration: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '1' },
      postgres: { type: 'string' },
    },
  });
  const settings: LoadSettings = {
    durationSeconds: Number(values.duration),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
    warmupSeconds: Number(values.warmup),
  };
  const startedAt = performance.now();
  const upstream = await startBenchServer('upstream');
  const comparisons: Comparison[] = [];
  try {
    comparisons.push(...(await compareOn('SQLite', upstream.port, settings)));
    if (values.postgres) {
      const schema = await privateSchema(values.postgres);
      try {
        comparisons.push(...(await compareOn('PostgreSQL', upstream.port, settings, schema.url)));
      } finally {
        await schema.drop();
      }
    }
  } finally {
    await upstream.stop();
  }
  const report = { machine: describeMachine(), settings, elapsedSeconds: round((performance.now() - startedAt) / 1000, 1), comparisons };
  const outputPath = join(repoRoot, outputFile);
  mkdirSync(dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${renderComparisons(report)}\n\nWrote ${outputFile}`);
}

/** Both gateways on one store, loaded in turn: (a) and (b) at the bench's connections, then (a) at one. */
async function compareOn(store: Comparison['store'], upstreamPort: number, settings: LoadSettings, databaseUrl?: string): Promise<Comparison[]> {
  const gateways = await Promise.all(durabilities.map((durability) => startGatewayProcess(upstreamPort, { config: benchGatewayConfig(upstreamPort, durability), databaseUrl })));
  try {
    const runs: Array<{ scenario: ScenarioId; connections: number }> = [
      { scenario: 'a', connections: settings.connections },
      { scenario: 'b', connections: settings.connections },
      { scenario: 'a', connections: 1 },
    ];
    const comparisons: Comparison[] = [];
    for (const { scenario, connections } of runs) {
      const targets = durabilities.map((durability, i) => ({ name: durability, origin: gateways[i]!.origin, request: scenarios[scenario].request('gateway', gateways[i]!.apiKey) }));
      const load = await loadTargetsInTurn(targets, { ...settings, connections, label: `[${store} ${scenario}]` });
      comparisons.push({ store, scenario, connections, batch: load.batch, sync: load.sync });
    }
    return comparisons;
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  }
}

/** A schema of the bench's own, so its rows never mix with anything else in that database. */
async function privateSchema(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_ledger_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  return {
    url: `${url}${separator}options=-c%20search_path%3D${schema}`,
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

function renderComparisons(report: { machine: ReturnType<typeof describeMachine>; settings: LoadSettings; elapsedSeconds: number; comparisons: Comparison[] }): string {
  const { machine, settings } = report;
  const ms = (value: number) => value.toFixed(3);
  const failures = (load: LoadSummary) => load.non2xx + load.errors + load.timeouts + load.mismatches;
  return [
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, ${machine.date}`,
    `Settings: ${settings.rounds} round(s) × ${settings.durationSeconds} s per gateway after ${settings.warmupSeconds} s warm-up; run took ${report.elapsedSeconds} s`,
    '',
    '| Store | Scenario | Connections | batch req/s | sync req/s | sync / batch | batch median / p99 ms | sync median / p99 ms | failures (batch/sync) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...report.comparisons.map(({ store, scenario, connections, batch, sync }) =>
      `| ${store} | (${scenario}) | ${connections} | ${batch.requestsPerSecond.toFixed(0)} | ${sync.requestsPerSecond.toFixed(0)} | ` +
        `${Math.round((100 * sync.requestsPerSecond) / batch.requestsPerSecond)}% | ${ms(batch.medianMs)} / ${ms(batch.p99Ms)} | ` +
        `${ms(sync.medianMs)} / ${ms(sync.p99Ms)} | ${failures(batch)}/${failures(sync)} |`,
    ),
  ].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
