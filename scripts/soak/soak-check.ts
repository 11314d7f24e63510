/**
 * Throws when a response is not what its kind expects. The load loop counts a throw as a failure of that
 * kind and keeps the message (grouped), so the report says what went wrong, not only how often.
 */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Expects `call` to fail with HTTP `status` (SDK errors carry `status`); any other outcome throws. */
export async function expectStatus(status: number, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const actual = (error as { status?: unknown }).status;
    if (actual === status) return;
    throw error;
  }
  throw new Error(`expected HTTP ${status}, the call succeeded`);
}

/** A raw `fetch` response's status, checked, with its body read to the end so the connection is reused. */
export async function expectResponseStatus(response: Response, status: number): Promise<string> {
  const body = await response.text();
  check(response.status === status, `expected HTTP ${status}, got ${response.status}: ${body.slice(0, 200)}`);
  return body;
}
