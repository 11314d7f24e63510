import type { GatewayDb } from './database.js';

/** A stored Responses API answer and the input that produced it. Items are kept as the wire has them. */
export interface StoredResponse {
  id: string;
  ownerId: string;
  previousResponseId: string | null;
  createdAt: number;
  expiresAt: number;
  inputItems: Array<Record<string, unknown>>;
  response: Record<string, unknown>;
  /** The upstream that holds this response too, and its ID there; null when only the gateway has it. */
  upstream?: UpstreamResponseRef | null;
}

export interface UpstreamResponseRef {
  providerId: string;
  responseId: string;
}

/** A `previous_response_id` chain: every turn's items (inputs, then outputs), and the turns themselves, oldest first. */
export interface StoredConversation {
  items: Array<Record<string, unknown>>;
  responses: StoredResponse[];
}

/** Longest `previous_response_id` chain followed; a guard against cycles written by hand into the store. */
const maxChainLength = 1_000;

/**
 * Responses the gateway keeps so `previous_response_id` works on every upstream. Every read is scoped to
 * the owner and ignores expired rows, so another account's, an expired and a deleted response all look
 * the same to a client: not found.
 */
export class ResponseStore {
  constructor(
    private readonly db: GatewayDb,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async save(stored: StoredResponse): Promise<void> {
    const itemIds = new Set(
      [...stored.inputItems, ...outputOf(stored.response)]
        .filter((item) => item.type !== 'item_reference' && typeof item.id === 'string')
        .map((item) => item.id as string),
    );
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('responses')
        .values({
          id: stored.id,
          owner_id: stored.ownerId,
          previous_response_id: stored.previousResponseId,
          created_at: stored.createdAt,
          expires_at: stored.expiresAt,
          input_items: JSON.stringify(stored.inputItems),
          response: JSON.stringify(stored.response),
          upstream_provider_id: stored.upstream?.providerId ?? null,
          upstream_response_id: stored.upstream?.responseId ?? null,
        })
        .execute();
      if (itemIds.size === 0) return;
      await trx
        .insertInto('response_items')
        .values([...itemIds].map((itemId) => ({ owner_id: stored.ownerId, item_id: itemId, response_id: stored.id })))
        .execute();
    });
  }

  async get(id: string, ownerId: string): Promise<StoredResponse | undefined> {
    const row = await this.db
      .selectFrom('responses')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      ownerId: row.owner_id,
      previousResponseId: row.previous_response_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      inputItems: JSON.parse(row.input_items) as StoredResponse['inputItems'],
      response: JSON.parse(row.response) as StoredResponse['response'],
      upstream:
        row.upstream_provider_id !== null && row.upstream_response_id !== null
          ? { providerId: row.upstream_provider_id, responseId: row.upstream_response_id }
          : null,
    };
  }

  /** True when the owner's response existed (and is now gone). */
  async delete(id: string, ownerId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('responses').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom('response_items').where('response_id', '=', id).execute();
      return true;
    });
  }

  /**
   * Items of the owner's live responses by item ID, wherever they were stored (as input or output): what an
   * `item_reference` names. IDs not found are simply absent from the map.
   */
  async findItems(itemIds: readonly string[], ownerId: string): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    if (itemIds.length === 0) return found;
    const rows = await this.db
      .selectFrom('response_items')
      .innerJoin('responses', 'responses.id', 'response_items.response_id')
      .select(['response_items.item_id', 'responses.input_items', 'responses.response'])
      .where('response_items.owner_id', '=', ownerId)
      .where('responses.owner_id', '=', ownerId)
      .where('response_items.item_id', 'in', [...new Set(itemIds)])
      .where('responses.expires_at', '>', this.now())
      .execute();
    for (const row of rows) {
      if (found.has(row.item_id)) continue;
      const items = [...(JSON.parse(row.input_items) as Array<Record<string, unknown>>), ...outputOf(JSON.parse(row.response) as Record<string, unknown>)];
      const item = items.find((candidate) => candidate.id === row.item_id && candidate.type !== 'item_reference');
      if (item) found.set(row.item_id, item);
    }
    return found;
  }

  /**
   * The conversation that ends with response `id`, oldest first: each turn's input items followed by its
   * output items. Undefined when `id` (or any response it builds on) is missing, expired or not the owner's.
   */
  async conversation(id: string, ownerId: string): Promise<StoredConversation | undefined> {
    const chain: StoredResponse[] = [];
    let next: string | null = id;
    while (next !== null) {
      if (chain.length >= maxChainLength) return undefined;
      const stored: StoredResponse | undefined = await this.get(next, ownerId);
      if (!stored) return undefined;
      chain.unshift(stored);
      next = stored.previousResponseId;
    }
    const items = chain.flatMap((stored) => [...stored.inputItems, ...outputOf(stored.response)]);
    return { items, responses: chain };
  }

  /** Deletes expired responses (and their item index); returns how many. */
  async purgeExpired(): Promise<number> {
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const expired = trx.selectFrom('responses').select('id').where('expires_at', '<=', now);
      await trx.deleteFrom('response_items').where('response_id', 'in', expired).execute();
      const result = await trx.deleteFrom('responses').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}

function outputOf(response: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(response.output) ? (response.output as Array<Record<string, unknown>>) : [];
}
