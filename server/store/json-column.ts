/**
 * A JSON object stored in a text column (permissions, limits). The column is only ever written by the
 * gateway from validated input, so anything unreadable means a damaged row: it reads as `{}` rather than
 * failing every request of the key.
 */
export function parseJsonColumn<T extends object>(text: string | null | undefined): T {
  if (!text) return {} as T;
  try {
    const value = JSON.parse(text) as unknown;
    return (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as T;
  } catch {
    return {} as T;
  }
}
