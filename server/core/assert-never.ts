/**
 * For the `default` of a switch over a closed union: the compiler proves it unreachable, and should a value
 * the types did not foresee arrive at run time anyway (an unchecked cast, a newer upstream), it fails loudly
 * instead of being skipped.
 *
 * @example
 * switch (event.type) { case 'text_delta': …; default: return assertNever(event); }
 */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value) ?? String(value)}`);
}
