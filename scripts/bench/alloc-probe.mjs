// Loaded into the gateway by `npm run bench:alloc` (node --import this file): the first SIGUSR2 starts a
// measurement window, the second ends it and writes what the main thread's V8 heap did in between to
// <tmpdir>/alloc-probe-<pid>.json. Bytes allocated are not a V8 counter, so they are reconstructed: the
// used heap's growth over the window plus what every GC in it freed (GCProfiler gives each GC's before and
// after). With ALLOC_PROBE_SITES=1 the window also runs V8's sampling heap profiler, keeping samples of
// objects already collected, so that the bytes can be given to the functions that allocated them. With
// ALLOC_PROBE_PROMISES=1 it counts instead the promises made and the promise reactions run (an `await`
// resuming or a `then` callback: the async stages) in the window, through async_hooks, which slows every
// promise down: the heap figures of such a window are not comparable. ALLOC_PROBE_PROMISES=sites also tallies
// where each promise was made (a stack per promise: slower still). ALLOC_PROBE_SITES=survivors samples only
// objects that outlived a scavenge.
// Plain JavaScript so that it loads into the bundle as production runs it (no tsx).
import { createHook } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';

// '1': every sampled allocation; 'live': only those still alive when the window closes (what is retained);
// 'survivors': those a scavenge did not collect (promoted, or still young at the end), what promotion grows with.
const sampleSites = ['1', 'live', 'survivors'].includes(process.env.ALLOC_PROBE_SITES ?? '');
const includeCollected = process.env.ALLOC_PROBE_SITES !== 'live';
const includeCollectedYoung = process.env.ALLOC_PROBE_SITES === '1';
const countPromises = process.env.ALLOC_PROBE_PROMISES === '1' || process.env.ALLOC_PROBE_PROMISES === 'sites';
// 'sites': also the code that made each promise (its first frames outside Node's own), which is slow.
const promiseSites = process.env.ALLOC_PROBE_PROMISES === 'sites' ? new Map() : undefined;
const promises = { made: 0, reactions: 0 };
/** The window's promises not yet collected: `before` fires for every kind of async resource. */
const promiseIds = new Set();
const promiseHook = countPromises
  ? createHook({
      init: (id, type) => {
        if (type !== 'PROMISE') return;
        promises.made += 1;
        promiseIds.add(id);
        if (promiseSites) {
          const site = madeAt();
          promiseSites.set(site, (promiseSites.get(site) ?? 0) + 1);
        }
      },
      before: (id) => {
        if (promiseIds.has(id)) promises.reactions += 1;
      },
      destroy: (id) => promiseIds.delete(id),
    })
  : undefined;
let window;

process.on('SIGUSR2', () => {
  if (window === undefined) {
    window = { profiler: new v8.GCProfiler(), session: undefined };
    if (sampleSites) {
      window.session = new Session();
      window.session.connect();
      window.session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: includeCollected,
        includeObjectsCollectedByMinorGC: includeCollectedYoung,
      });
    }
    promises.made = promises.reactions = 0;
    promiseSites?.clear();
    promiseHook?.enable();
    window.profiler.start();
    window.heap = v8.getHeapStatistics();
    window.cpu = process.cpuUsage();
    return;
  }
  const cpu = process.cpuUsage(window.cpu);
  promiseHook?.disable();
  promiseIds.clear();
  const heap = v8.getHeapStatistics();
  const { statistics } = window.profiler.stop();
  const { session } = window;
  const started = window.heap;
  window = undefined;
  const gcs = statistics.map((gc) => ({
    type: gc.gcType,
    costMicros: gc.cost,
    freed: gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
    // What a scavenge moved out of the young generation: the old generation's growth over it.
    promoted: gc.gcType === 'Scavenge' ? oldGeneration(gc.afterGC) - oldGeneration(gc.beforeGC) : 0,
    // What a scavenge kept in the young generation (copied, to be copied again or promoted next time).
    kept: gc.gcType === 'Scavenge' ? spaceUsed(gc.afterGC, 'new_space') : 0,
  }));
  const result = {
    allocatedBytes: heap.used_heap_size - started.used_heap_size + gcs.reduce((sum, gc) => sum + gc.freed, 0),
    gcs: gcs.map(({ type, costMicros }) => ({ type, costMicros })),
    promotedBytes: gcs.reduce((sum, gc) => sum + gc.promoted, 0),
    keptBytes: gcs.reduce((sum, gc) => sum + gc.kept, 0),
    cpuMicros: cpu.user + cpu.system,
    sites: undefined,
    ...(countPromises && { promises: { ...promises } }),
    ...(promiseSites && { promiseSites: [...promiseSites].sort((a, b) => b[1] - a[1]).map(([site, count]) => ({ site, count })) }),
  };
  const write = () => writeFileSync(join(tmpdir(), `alloc-probe-${process.pid}.json`), JSON.stringify(result));
  if (session === undefined) return write();
  session.post('HeapProfiler.stopSampling', (error, answer) => {
    session.disconnect();
    if (error === null) result.sites = selfBytesByFunction(answer.profile.head);
    write();
  });
});

/** The first three frames of the current stack outside this file and Node's internals, one per line. */
function madeAt() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack
    .split('\n')
    .slice(1)
    .filter((line) => !line.includes('node:internal') && !line.includes('alloc-probe.mjs') && !line.includes('node:async_hooks'))
    .slice(0, 3)
    .map((line) => line.trim().replace(/\(.*\/(node_modules|build)\//, '($1/').replace(/^at /, ''))
    .join(' < ');
}

/** Bytes used in the spaces a scavenge promotes into. */
function oldGeneration(snapshot) {
  return spaceUsed(snapshot, 'old_space') + spaceUsed(snapshot, 'code_space') + spaceUsed(snapshot, 'lo_space');
}

function spaceUsed(snapshot, name) {
  return snapshot.heapSpaceStatistics.find((space) => space.spaceName === name)?.spaceUsedSize ?? 0;
}

/** The sampled bytes each function allocated itself, keyed "name file:line", largest first. */
function selfBytesByFunction(root) {
  const bytes = new Map();
  const visit = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const self = node.selfSize;
    if (self > 0) {
      const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|build)\//, '$1/')}:${lineNumber + 1}`;
      bytes.set(key, (bytes.get(key) ?? 0) + self);
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return [...bytes].sort((a, b) => b[1] - a[1]).map(([site, selfBytes]) => ({ site, selfBytes }));
}
