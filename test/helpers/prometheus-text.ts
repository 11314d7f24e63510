/** One sample line of the Prometheus text format: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text exposition format (https://prometheus.io/docs/instrumenting/exposition_formats/):
 * `#` lines are help and type comments, every other non-empty line one sample. Label values are quoted,
 * with `\\`, `\"` and `\n` escaped; values may be `NaN`, `+Inf` or `-Inf`; a timestamp may follow.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (!name) throw new Error(`not a sample line: ${line}`);
    let at = name.length;
    const labels: Record<string, string> = {};
    if (line[at] === '{') {
      const label = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;
      at += 1;
      for (label.lastIndex = at; line[label.lastIndex] !== '}'; ) {
        const match = label.exec(line);
        if (!match) throw new Error(`bad labels in: ${line}`);
        labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
      }
      at = label.lastIndex + 1;
    }
    const [value] = line.slice(at).trim().split(/\s+/);
    samples.push({ name, labels, value: value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include every one of `where` (a function for other tests). */
export function sumOf(samples: Sample[], name: string, where: Record<string, string> | ((labels: Record<string, string>) => boolean) = {}): number {
  const matches = typeof where === 'function' ? where : (labels: Record<string, string>) => Object.entries(where).every(([key, value]) => labels[key] === value);
  return samples.filter((sample) => sample.name === name && matches(sample.labels)).reduce((sum, sample) => sum + sample.value, 0);
}
