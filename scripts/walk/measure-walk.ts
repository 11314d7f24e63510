// `npm run measure:walk`: how many server files a streamed chat over an Anthropic upstream passes, phase by
// phase, and how many async stages one chunk goes through (issue 35, point 6). bench/README.md ("Measuring
// the walk") says what each number means. Prints a table and writes bench/walk.json.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../bench/repo-root.js';
import { CoverageSnapshots, type Snapshot } from './coverage-snapshots.js';
import { startHeldAnthropicUpstream } from './held-anthropic-upstream.js';
import { startGatewayInProcess } from './in-process-gateway.js';
import { PromiseReactions } from './promise-reactions.js';
import { prepareWalk, type WalkSample } from './walk-streamed-chat.js';

const serverFolder = join(repoRoot, 'server/');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { samples: { type: 'string', default: '5' }, warmups: { type: 'string', default: '3' } } });
  // Before the gateway's modules load, so that every function of theirs is counted from its first call.
  const coverage = new CoverageSnapshots(serverFolder);
  const reactions = new PromiseReactions(ownerOf, '/scripts/walk/');
  const upstream = await startHeldAnthropicUpstream();
  const gateway = await startGatewayInProcess(upstream.origin);
  const walk = prepareWalk({ coverage, reactions, upstream, gateway });
  for (let i = 0; i < Number(values.warmups); i++) await walk();
  const samples: WalkSample[] = [];
  for (let i = 0; i < Number(values.samples); i++) samples.push(await walk());
  await upstream.close();

  const files = (pick: (sample: WalkSample) => Snapshot, kind: keyof Snapshot) => majority(samples.map((sample) => pick(sample)[kind]));
  const frontDoor = files((s) => s.frontDoor, 'ran');
  const wayOut = files((s) => s.wayOut, 'ran');
  const wayBack = files((s) => s.wayBack, 'ran');
  const newOnWayBack = wayBack.filter((file) => !wayOut.includes(file));
  const owners = [...new Set(samples.flatMap((sample) => [...sample.reactions.keys()]))].sort();
  const reactionsByOwner = Object.fromEntries(owners.map((owner) => [owner, median(samples.map((sample) => sample.reactions.get(owner) ?? 0))]));
  const perSample = samples.map((sample) => ({
    frontDoor: sample.frontDoor.ran.size,
    wayOut: sample.wayOut.ran.size,
    wayBack: sample.wayBack.ran.size,
    asyncStages: sum(sample.reactions.values()),
    serverAsyncStages: sample.reactions.get('server') ?? 0,
  }));
  const result = {
    measured: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim(),
    node: process.version,
    samples: samples.length,
    method: 'bench/README.md, "Measuring the walk"',
    files: {
      frontDoor: frontDoor.length,
      wayOut: wayOut.length,
      wayBack: wayBack.length,
      newOnWayBack: newOnWayBack.length,
    },
    filesWithAFunctionCalled: {
      frontDoor: files((s) => s.frontDoor, 'called').length,
      wayOut: files((s) => s.wayOut, 'called').length,
      wayBack: files((s) => s.wayBack, 'called').length,
    },
    asyncStagesPerChunk: { all: sum(Object.values(reactionsByOwner)), byOwner: reactionsByOwner },
    stable: perSample.every((counts) => JSON.stringify(counts) === JSON.stringify(perSample[0])),
    perSample,
    lists: { frontDoor, wayOut, wayBack, newOnWayBack },
  };
  writeFileSync(join(repoRoot, 'bench/walk.json'), `${JSON.stringify(result, null, 2)}\n`);

  console.log(`Streamed chat (OpenAI client) over an Anthropic upstream, ${samples.length} samples after ${values.warmups} warm-ups, ${result.commit}, Node ${process.version}`);
  console.log('');
  console.log('| phase | server files run | of them with a function called |');
  console.log('|---|---|---|');
  console.log(`| front door (client sends → handler entered) | ${frontDoor.length} | ${result.filesWithAFunctionCalled.frontDoor} |`);
  console.log(`| way out (handler → upstream gets the request) | ${wayOut.length} | ${result.filesWithAFunctionCalled.wayOut} |`);
  console.log(`| way back (upstream writes one event → client gets its chunk) | ${wayBack.length} | ${result.filesWithAFunctionCalled.wayBack} |`);
  console.log(`| new on the way back (not run on the way out) | ${newOnWayBack.length} | |`);
  console.log('');
  console.log(`async stages per chunk (promise reactions in the way-back window): ${result.asyncStagesPerChunk.all} (${owners.map((owner) => `${owner} ${reactionsByOwner[owner]}`).join(', ')})`);
  console.log(`samples ${result.stable ? 'all alike' : 'differ'}: ${perSample.map((counts) => `${counts.frontDoor}/${counts.wayOut}/${counts.wayBack}/${counts.asyncStages}`).join(' ')}`);
  console.log('wrote bench/walk.json (with the file lists)');
}

/** A package's name for a frame in node_modules, `server` for the gateway's own; undefined to look further down the stack. */
function ownerOf(path: string): string | undefined {
  if (path.startsWith(serverFolder)) return 'server';
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
  // tsx only loads modules; a frame of it is never the code that made a promise on the request's path.
  return pkg === 'tsx' ? undefined : pkg;
}

/** Files in more than half of the sets, sorted: a timer of the gateway's (the ledger's 1 s flush) landing in one sample's window does not count. */
function majority(sets: Array<Set<string>>): string[] {
  const seen = new Map<string, number>();
  for (const set of sets) for (const file of set) seen.set(file, (seen.get(file) ?? 0) + 1);
  return [...seen].filter(([, count]) => count * 2 > sets.length).map(([file]) => file).sort();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
