import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a V8 `.cpuprofile` spent its time: self time per function and per package (or `(gateway)` for the
 * project's own files, `node:` for Node's internals), as two plain-text tables of the top `top` rows.
 */
export function summariseCpuProfile(path: string, top: number): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfMicros.values()].reduce((sum, micros) => sum + micros, 0);

  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byPackage.set(packageOf(url, functionName), (byPackage.get(packageOf(url, functionName)) ?? 0) + micros);
  }
  const table = (title: string, rows: Map<string, number>) =>
    [
      title,
      ...[...rows]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`),
    ].join('\n');
  return `${table('Self time by package', byPackage)}\n\n${table('Self time by function', byFunction)}`;
}

/** The gateway's own code: its sources, or the production bundle the bench runs (scripts/build-server.mjs). */
const gatewayCode = /\/(server|generated)\/|\/build\/gateway\.mjs/;

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const project = url.search(gatewayCode);
  return project >= 0 ? url.slice(project + 1) : url;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const modules = url.lastIndexOf('/node_modules/');
  if (modules < 0) return gatewayCode.test(url) ? '(gateway)' : url;
  const parts = url.slice(modules + '/node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}
