import { compactedSummaryText } from '../../core/compaction-summary.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { CompactionSeal } from './compaction-seal.js';
import { isGatewaySealed } from './compaction-seal.js';

type Item = Record<string, unknown>;

export function isCompactionItem(item: unknown): item is Item & { type: 'compaction'; encrypted_content: string } {
  return typeof item === 'object' && item !== null && (item as Item).type === 'compaction' && typeof (item as Item).encrypted_content === 'string';
}

export function isCompactionTrigger(item: unknown): boolean {
  return typeof item === 'object' && item !== null && (item as Item).type === 'compaction_trigger';
}

/**
 * The items with every `compaction` item the gateway sealed opened into the summary it holds, as a user
 * message every upstream reads (an `api: responses` one included: it cannot read the gateway's seal).
 * An item sealed for another account, by another key or altered is a 400 naming it (`param(i)`). Items an
 * upstream sealed stay as they are: whether they may go on depends on the upstream (foreignCompactionItems).
 */
export function openSealedItems<T>(items: readonly T[], seal: CompactionSeal, account: string, param: (index: number) => string): T[] {
  return items.map((item, index) => {
    if (!isCompactionItem(item) || !isGatewaySealed(item.encrypted_content)) return item;
    const opened = seal.open(item.encrypted_content, account);
    if (opened.kind !== 'summary') {
      throw new GatewayError('invalid_request', `The compaction item at ${param(index)} cannot be opened: it was not made by this gateway for this account, or it was altered.`, {
        param: `${param(index)}.encrypted_content`,
        code: 'invalid_encrypted_content',
      });
    }
    return { type: 'message', role: 'user', content: [{ type: 'input_text', text: compactedSummaryText(opened.summary) }] } as T;
  });
}

/**
 * Where the `compaction` items an upstream sealed (OpenAI's own blobs) are: only an `api: responses`
 * upstream may get them, so a request carrying one is refused for any other rather than sent without it
 * (the conversation would silently lose its summary) or with it (another provider must never see it).
 */
export function foreignCompactionItems(items: readonly unknown[], param: (index: number) => string): string[] {
  return items.flatMap((item, index) => (isCompactionItem(item) && !isGatewaySealed(item.encrypted_content) ? [param(index)] : []));
}

/** The 400 for a foreign compaction item on an upstream that cannot read it. */
export function foreignCompactionRefused(param: string, model: string): GatewayError {
  return new GatewayError(
    'invalid_request',
    `The compaction item at ${param} was made by another provider's Responses API and can only be sent to it; model '${model}' is served by a different upstream.`,
    { param, code: 'invalid_encrypted_content' },
  );
}
