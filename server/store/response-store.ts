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
    await this.db
      .insertInto('responses')
      .values({
        id: stored.id,
        owner_id: stored.ownerId,
        previous_response_id: stored.previousResponseId,
        created_at: stored.createdAt,
        expires_at: stored.expiresAt,
        input_items: JSON.stringify(stored.inputItems),
        response: JSON.stringify(stored.response),
      })
      .execute();
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
    };
  }

  /** True when the owner's response existed (and is now gone). */
  async delete(id: string, ownerId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('responses').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The conversation that ends with response `id`, oldest first: each turn's input items followed by its
   * output items. Undefined when `id` (or any response it builds on) is missing, expired or not the owner's.
   */
  async conversation(id: string, ownerId: string): Promise<{ items: Array<Record<string, unknown>>; responses: StoredResponse[] } | undefined> {
    const chain: StoredResponse[] = [];
    let next: string | null = id;
    while (next !== null) {
      if (chain.length >= maxChainLength) return undefined;
      const stored: StoredResponse | undefined = await this.get(next, ownerId);
      if (!stored) return undefined;
      chain.unshift(stored);
      next = stored.previousResponseId;
    }
    const items = chain.flatMap((stored) => [...stored.inputItems, ...((stored.response.output as Array<Record<string, unknown>>) ?? [])]);
    return { items, responses: chain };
  }

  /** Deletes expired responses; returns how many. */
  async purgeExpired(): Promise<number> {
    const result = await this.db.deleteFrom('responses').where('expires_at', '<=', this.now()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
