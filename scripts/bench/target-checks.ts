import type { ScenarioResult, SingleConnectionResult, TargetCheck } from './bench-results.js';

/**
 * Issue 9's performance targets, judged on this run. They are reported, never enforced: the process exits
 * 0 either way, because a shared CI machine's numbers are too noisy to gate on.
 */
export function evaluateTargetChecks(scenarios: readonly ScenarioResult[], single: SingleConnectionResult | undefined, connections: number): TargetCheck[] {
  const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const checks: TargetCheck[] = [];

  const a = byId.get('a');
  checks.push(
    a
      ? {
          name: `(a) gateway rps ≥ 50% of proxy rps at ${connections} connections`,
          measured: `${a.load.gateway.requestsPerSecond} vs ${a.load.proxy.requestsPerSecond} req/s (${percent(a.load.gateway.requestsPerSecond / a.load.proxy.requestsPerSecond)})`,
          pass: a.load.gateway.requestsPerSecond >= 0.5 * a.load.proxy.requestsPerSecond,
        }
      : skipped(`(a) gateway rps ≥ 50% of proxy rps at ${connections} connections`),
  );

  const meanName = '(a) gateway mean latency ≤ proxy mean + 0.25 ms at 1 connection';
  checks.push(
    single
      ? {
          name: meanName,
          measured: `${single.load.gateway.meanMsPerRequest} vs ${single.load.proxy.meanMsPerRequest} ms (+${(single.load.gateway.meanMsPerRequest - single.load.proxy.meanMsPerRequest).toFixed(3)} ms)`,
          pass: single.load.gateway.meanMsPerRequest <= single.load.proxy.meanMsPerRequest + 0.25,
        }
      : skipped(meanName),
  );

  for (const id of ['b', 'c'] as const) {
    const name = `(${id}) gateway TTFB median ≤ direct TTFB median + 1 ms`;
    const ttfb = byId.get(id)?.ttfb;
    checks.push(
      ttfb
        ? {
            name,
            measured: `${ttfb.gateway.medianMs} vs ${ttfb.direct.medianMs} ms (+${(ttfb.gateway.medianMs - ttfb.direct.medianMs).toFixed(3)} ms)`,
            pass: ttfb.gateway.medianMs <= ttfb.direct.medianMs + 1,
          }
        : skipped(name),
    );
  }
  return checks;
}

export function formatChecks(checks: readonly TargetCheck[]): string {
  return checks.map((check) => `${check.pass === null ? 'SKIP' : check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.measured}`).join('\n');
}

function skipped(name: string): TargetCheck {
  return { name, measured: 'not measured in this run', pass: null };
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`;
}
