import type { RequestKind } from './request-kind.js';
import type { RequestTally } from './request-tally.js';
import type { SoakClients } from './soak-clients.js';

/**
 * Runs `concurrency` loops, each sending one request after another with no pause, until `deadline`
 * (a `performance.now()` time); a request started before the deadline is finished, not cut. Kinds come
 * from a shuffled deck that holds each kind `weight` times, dealt in turn, so the mix matches the weights
 * exactly over every deck rather than on average, and the same seed deals the same sequence.
 */
export async function runMixedLoad(
  kinds: RequestKind[],
  clients: SoakClients,
  options: { concurrency: number; deadline: number; tally: RequestTally },
): Promise<void> {
  const deck = shuffle(
    kinds.flatMap((kind) => Array<RequestKind>(kind.weight).fill(kind)),
    0x50a4,
  );
  let next = 0;
  const loop = async () => {
    while (performance.now() < options.deadline) {
      const kind = deck[next++ % deck.length];
      await sendOne(kind, clients, options.tally);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
}

/** Every kind once, one after another: shows a broken kind at once instead of after ten minutes. */
export async function sendEachKindOnce(kinds: RequestKind[], clients: SoakClients, tally: RequestTally): Promise<void> {
  for (const kind of kinds) await sendOne(kind, clients, tally);
}

async function sendOne(kind: RequestKind, clients: SoakClients, tally: RequestTally): Promise<void> {
  const startedAt = performance.now();
  try {
    await kind.run(clients);
    tally.record(kind.name, performance.now() - startedAt);
  } catch (error) {
    tally.record(kind.name, performance.now() - startedAt, error);
  }
}

/** Fisher–Yates with a small seeded generator (mulberry32), so every run deals the same order. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other], items[index]];
  }
  return items;
}
