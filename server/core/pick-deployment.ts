import type { Deployment } from './model-registry.js';

/**
 * Weighted random choice: a deployment with weight 3 gets three times the traffic of one with weight 1.
 * `random` is injectable so tests can pin the choice.
 */
export function pickWeighted(deployments: readonly Deployment[], random: () => number = Math.random): Deployment | undefined {
  const total = deployments.reduce((sum, deployment) => sum + deployment.weight, 0);
  let point = random() * total;
  for (const deployment of deployments) {
    point -= deployment.weight;
    if (point < 0) return deployment;
  }
  return deployments.at(-1);
}
