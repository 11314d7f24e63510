import type { LoadSummary } from './measure-throughput.js';

/** Cells of the markdown tables the bench prints (render-table.ts, render-batch-table.ts). */
export function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '—';
}

export function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}

/** non-2xx/errors/timeouts/incomplete. */
export function problems(load: LoadSummary): string {
  return `${load.non2xx}/${load.errors}/${load.timeouts}/${load.mismatches}`;
}
