import { hash } from 'node:crypto';
import type { Deployment } from './model-registry.js';

/** 2^48: the six bytes of a digest read as a fraction. */
const sixBytes = 2 ** 48;

/**
 * A session's order of preference among deployments, by weighted rendezvous (highest random weight)
 * hashing: each deployment scores `-weight / ln(h)`, where `h` in (0, 1) is a hash of the session key and
 * the deployment's key, and the highest score comes first. A deployment wins a share of sessions
 * proportional to its weight; every gateway instance with the same config computes the same order with no
 * shared state; adding or removing a deployment moves only the sessions it wins or had won; and when the
 * first is unusable, the next is the session's own stable second choice. (Schindelhauer and Schomaker,
 * "Weighted Distributed Hash Tables", SPAA 2005; the logarithmic method as in Wikipedia's "Rendezvous
 * hashing", section "Weighted rendezvous hash".)
 */
export function rendezvousOrder(deployments: readonly Deployment[], sessionKey: string): Deployment[] {
  const scored = deployments.map((deployment) => ({ deployment, score: -deployment.weight / Math.log(unitHash(`${sessionKey}\0${deployment.key}`)) }));
  return scored.sort((a, b) => b.score - a.score).map(({ deployment }) => deployment);
}

/** A uniform value strictly between 0 and 1, from the first six bytes of the text's SHA-256. */
function unitHash(text: string): number {
  return (hash('sha256', text, 'buffer').readUIntBE(0, 6) + 0.5) / sixBytes;
}
