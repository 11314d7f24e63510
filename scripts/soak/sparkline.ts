const bars = '▁▂▃▄▅▆▇█';

/**
 * A one-line chart of `values`: at most `width` columns, each the highest value of its slice of samples
 * (so a short spike still shows), scaled from the lowest to the highest value.
 *
 * @example sparkline([1, 2, 3, 4]) // → '▁▃▆█'
 */
export function sparkline(values: readonly number[], width = 72): string {
  if (values.length === 0) return '';
  const columns = Math.min(width, values.length);
  const peaks = Array.from({ length: columns }, (_, column) => {
    const slice = values.slice(Math.floor((column * values.length) / columns), Math.floor(((column + 1) * values.length) / columns));
    return Math.max(...slice);
  });
  const low = Math.min(...values);
  const span = Math.max(...values) - low;
  return peaks.map((value) => bars[span === 0 ? 0 : Math.round(((value - low) / span) * (bars.length - 1))]).join('');
}
