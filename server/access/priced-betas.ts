import type { CostOption } from './access-types.js';
import type { CostOptionUse } from './wire-scan/wire-scan.js';

/**
 * Anthropic betas that change what a request costs, by the cost option that permits them: the 1M-token
 * context window bills input beyond 200K tokens at a higher rate, and the one-hour cache bills its writes
 * at twice the input price (https://docs.anthropic.com/en/docs/about-claude/pricing). Betas that add a
 * tool or a feature are governed by the body's fields instead, which the wire scan reads.
 */
const pricedBetas: readonly (readonly [prefix: string, option: CostOption])[] = [
  ['context-1m-', 'long_context'],
  ['extended-cache-ttl-', 'extended_cache_ttl'],
];

/** The cost options an `anthropic-beta` header (comma-separated names) asks for, each named by its value. */
export function costOptionsOfBetas(header: string | undefined): CostOptionUse[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((beta) => beta.trim().toLowerCase())
    .flatMap((beta) => pricedBetas.filter(([prefix]) => beta.startsWith(prefix)).map(([, option]) => ({ option, param: `anthropic-beta: ${beta}` })));
}
