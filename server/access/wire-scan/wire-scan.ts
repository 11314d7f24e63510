import type { ModelCapability } from '../../config/config-schema.js';
import type { CostOption } from '../access-types.js';

/** A field of the body that asks for a capability, named as the client wrote it: `tools[2].type`, `messages[1].content[0].content[1]`, `generation_config.response_modalities`. */
export interface CapabilityUse {
  capability: ModelCapability;
  param: string;
}

/**
 * A number in the body that asks for output tokens, with its field: the output cap, a reasoning budget, or
 * the count of answers (Gemini's `candidateCount`), each of which may be as long as the cap.
 */
export interface OutputTokenAsk {
  param: string;
  value: number;
  kind: 'max_output' | 'reasoning_budget' | 'candidates';
}

/** A field or header that asks for an option that changes the request's price, named as the client wrote it. */
export interface CostOptionUse {
  option: CostOption;
  param: string;
}

export interface WireScan {
  uses: CapabilityUse[];
  costOptions: CostOptionUse[];
  /** Fields (and `type` values of tools, content blocks, parts, items) the scanner does not know, by param path. A narrowed key's request with any of these is refused. */
  unknown: string[];
  outputTokens: OutputTokenAsk[];
}

/**
 * An item a request brings in by naming it rather than sending it: Responses' `item_reference` and the
 * conversation of `previous_response_id`, read from the gateway's store. `param` is the field that brought
 * it (`input[2]` for a reference, `previous_response_id[5]` for the sixth item of the conversation).
 */
export interface BroughtItem {
  item: unknown;
  param: string;
}

/**
 * How one client protocol's bodies are read: each protocol declares its scanner in its own folder
 * (protocols/<name>/scan-<name>.ts), built from scan-fields.ts's rules.
 */
export interface WireScanner {
  /** Reads a whole body (an object). */
  body(body: Record<string, unknown>, scan: WireScan): void;
  /** Reads one item of the protocol's history, as if it had been sent in the body; none for protocols without history. */
  item?: Walker;
}

/** Reads a value found at `param` and records what it asks for (scan-fields.ts builds the scanners of them). */
export type Walker = (value: unknown, param: string, scan: WireScan) => void;

/**
 * What a raw request body asks of the upstream, read from the wire as the client sent it rather than from
 * the converted request: a pass-through forwards the raw body, so a field the converters ignore would
 * otherwise reach the upstream unchecked. The scan is pure and never throws; a body that is not an object
 * asks for nothing (the contract validator refuses it first).
 *
 * @example
 * const scan = scanWireBody(anthropicMessagesWireScanner, { model: 'm', max_tokens: 64, messages: [], mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] });
 * // scan.uses → [{ capability: 'tools', param: 'mcp_servers' }]; scan.outputTokens → [{ param: 'max_tokens', value: 64, kind: 'max_output' }]
 */
export function scanWireBody(scanner: WireScanner, body: unknown, brought: readonly BroughtItem[] = []): WireScan {
  const scan: WireScan = { uses: [], costOptions: [], unknown: [], outputTokens: [] };
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) scanner.body(body as Record<string, unknown>, scan);
  // What the upstream reads from history it reads as much as the body, so history is scanned like the body.
  const scanItem = scanner.item;
  for (const { item, param } of brought) {
    if (scanItem) scanItem(item, param, scan);
    else scan.unknown.push(param);
  }
  return scan;
}
