import { GatewayError } from '../../core/gateway-error.js';

/** OpenAI's default for batch input ("files with purpose=batch expire after 30 days"), and the longest `expires_after`. */
const thirtyDays = 30 * 86_400;
const oneHour = 3_600;

/**
 * When an upload expires (Unix seconds), from its `expires_after` (OpenAI's `FileExpirationAfter`: anchor
 * `created_at`, 3,600 to 2,592,000 seconds), sent as bracketed fields (`expires_after[seconds]`, as the SDK
 * does) or as one JSON object; without it, `batch` files expire after 30 days and the others never.
 */
export function expiryOf(expiresAfter: unknown, purpose: string, createdAt: number): number | undefined {
  if (expiresAfter === undefined) return purpose === 'batch' ? createdAt + thirtyDays : undefined;
  const policy = typeof expiresAfter === 'string' ? parsePolicy(expiresAfter) : (expiresAfter as Record<string, unknown>);
  if (policy.anchor !== 'created_at') throw invalid("expires_after[anchor] must be 'created_at'.");
  const seconds = Number(policy.seconds);
  if (!Number.isInteger(seconds) || seconds < oneHour || seconds > thirtyDays) {
    throw invalid(`expires_after[seconds] must be an integer from ${oneHour} to ${thirtyDays}.`);
  }
  return createdAt + seconds;
}

function parsePolicy(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: refused below.
  }
  throw invalid('expires_after must be an object with anchor and seconds.');
}

function invalid(message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param: 'expires_after' });
}
