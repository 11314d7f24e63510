import { GatewayError } from '../../core/gateway-error.js';
import { asRecord, parseJson } from './parse-json.js';

/**
 * One stream event's data as the JSON object every provider's events are, or the upstream failure it is
 * when it is not: a cut or garbled frame must never reach a client's SDK as if it were an event. The
 * error has no status, so the router retries it while nothing has reached the client.
 *
 * @example
 * for await (const { data } of readSse(chunks)) {
 *   const chunk = jsonEvent(data, 'openai'); // throws on `data: {"id": "x", "choi`
 * }
 */
export function jsonEvent(data: string, providerId: string): Record<string, unknown> {
  const json = asRecord(parseJson(data));
  if (json) return json;
  throw new GatewayError('upstream', `The upstream provider '${providerId}' sent a stream event that is not a JSON object.`, {
    upstream: { providerId },
  });
}
