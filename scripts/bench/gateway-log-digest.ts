/**
 * What the gateway printed, counted instead of kept: under load one repeated message can be thousands of
 * lines. Pino JSON lines are grouped by level, message and error message; anything else by its text.
 */
export interface GatewayLogSummary {
  lines: number;
  groups: Array<{ level: string; message: string; count: number }>;
  /** The first few lines as printed, for the stack traces the groups leave out. */
  firstLines: string[];
}

const pinoLevels: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const keptFirstLines = 3;

export class GatewayLogDigest {
  private lines = 0;
  private readonly groups = new Map<string, { level: string; message: string; count: number }>();
  private readonly firstLines: string[] = [];
  private partial = '';

  /** Feeds a chunk of stdout or stderr. */
  add(chunk: Buffer): void {
    const text = this.partial + chunk.toString();
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) this.addLine(line);
  }

  summary(): GatewayLogSummary {
    if (this.partial.trim()) this.addLine(this.partial);
    this.partial = '';
    return { lines: this.lines, groups: [...this.groups.values()].sort((x, y) => y.count - x.count), firstLines: [...this.firstLines] };
  }

  private addLine(line: string): void {
    this.lines++;
    if (this.firstLines.length < keptFirstLines) this.firstLines.push(line);
    const { level, message } = describe(line);
    const key = `${level}\u0000${message}`;
    const group = this.groups.get(key);
    if (group) group.count++;
    else this.groups.set(key, { level, message, count: 1 });
  }
}

function describe(line: string): { level: string; message: string } {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const error = entry.err?.message ? ` (${entry.err.message})` : '';
    return { level: pinoLevels[entry.level ?? 0] ?? String(entry.level), message: `${entry.msg ?? ''}${error}` };
  } catch {
    return { level: 'text', message: line.slice(0, 200) };
  }
}
