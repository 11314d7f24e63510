import { readFileSync } from 'node:fs';

/** This process's open-file limit (`ulimit -n`), which the children it spawns inherit. */
export function openFileLimit(): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  const parse = (text: string | undefined) => (text === undefined || text === 'unlimited' ? Infinity : Number(text));
  return { soft: parse(line?.[1]), hard: parse(line?.[2]) };
}

/**
 * Warns when this process (and so the upstream and gateway it starts) may not open `needed` files. Node
 * raises its soft limit to the hard limit at start-up by itself (and so does every Node child), so only a
 * low hard limit is left to report; raising that takes root (`ulimit -Hn`, limits.conf, the container's).
 */
export function checkOpenFileLimit(needed: number): void {
  const { soft } = openFileLimit();
  if (soft < needed) console.warn(`WARNING open-file limit is ${soft}; ${needed} are needed. Raise it (ulimit -n ${needed}) or expect EMFILE.`);
}
