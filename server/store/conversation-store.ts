import type { GatewayDb } from './database.js';

type Item = Record<string, unknown>;

/** A conversation as kept: its owner (an account), creation time (Unix seconds) and metadata. */
export interface StoredConversationRecord {
  id: string;
  ownerId: string;
  createdAt: number;
  metadata: Record<string, string>;
}

/** Where a page of items starts and how it runs, as the list route's query says. */
export interface ConversationItemQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

/** A page of items, or why there is none: no such conversation (for this owner), or an `after` not among its items. */
export type ConversationItemPage = { items: Item[]; hasMore: boolean } | 'no-conversation' | 'unknown-cursor';

/**
 * OpenAI Conversations kept by the gateway: a conversation and its items in order, owned by an account.
 * Every read and write is scoped to the owner, so another account's conversation looks like none at all.
 * Items are kept as the wire has them, each with an `id` (the caller gives every item one).
 */
export class ConversationStore {
  constructor(private readonly db: GatewayDb) {}

  /** A new conversation with its first items (in one transaction: either both are kept or neither). */
  async create(record: StoredConversationRecord, items: readonly Item[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('conversations')
        .values({ id: record.id, owner_id: record.ownerId, created_at: record.createdAt, metadata: JSON.stringify(record.metadata), item_count: items.length })
        .execute();
      if (items.length > 0) await trx.insertInto('conversation_items').values(itemRows(record.id, 0, items)).execute();
    });
  }

  async get(id: string, ownerId: string): Promise<StoredConversationRecord | undefined> {
    const row = await this.db.selectFrom('conversations').select(['id', 'owner_id', 'created_at', 'metadata']).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return row && { id: row.id, ownerId: row.owner_id, createdAt: row.created_at, metadata: JSON.parse(row.metadata) as Record<string, string> };
  }

  /** Replaces the metadata; the conversation as it now is, or undefined when the owner has none by that ID. */
  async setMetadata(id: string, ownerId: string, metadata: Record<string, string>): Promise<StoredConversationRecord | undefined> {
    const result = await this.db.updateTable('conversations').set({ metadata: JSON.stringify(metadata) }).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(result.numUpdatedRows) === 0 ? undefined : this.get(id, ownerId);
  }

  /** Deletes the conversation and its items; true when the owner had it. */
  async delete(id: string, ownerId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('conversations').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom('conversation_items').where('conversation_id', '=', id).execute();
      return true;
    });
  }

  /**
   * Appends items after the conversation's last, in order; false when the owner has no such conversation.
   * The counter is bumped first, in the transaction that inserts the items: the update holds the row (the
   * database, on SQLite) until the commit, so turns appending at once get positions one after the other and
   * none overwrites another's.
   */
  async append(id: string, ownerId: string, items: readonly Item[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const bumped = await trx
        .updateTable('conversations')
        .set((eb) => ({ item_count: eb('item_count', '+', items.length) }))
        .where('id', '=', id)
        .where('owner_id', '=', ownerId)
        .returning('item_count')
        .executeTakeFirst();
      if (!bumped) return false;
      if (items.length > 0) await trx.insertInto('conversation_items').values(itemRows(id, Number(bumped.item_count) - items.length, items)).execute();
      return true;
    });
  }

  /** Every item of the conversation, oldest first (the history a response in it builds on); undefined when the owner has none by that ID. */
  async items(id: string, ownerId: string): Promise<Item[] | undefined> {
    if (!(await this.get(id, ownerId))) return undefined;
    const rows = await this.db.selectFrom('conversation_items').select('item').where('conversation_id', '=', id).orderBy('position', 'asc').execute();
    return rows.map((row) => JSON.parse(row.item) as Item);
  }

  /** One page of items in `order`, after the item `after` names. */
  async page(id: string, ownerId: string, query: ConversationItemQuery): Promise<ConversationItemPage> {
    if (!(await this.get(id, ownerId))) return 'no-conversation';
    let select = this.db.selectFrom('conversation_items').select('item').where('conversation_id', '=', id);
    if (query.after !== undefined) {
      const cursor = await this.positionOf(id, query.after);
      if (cursor === undefined) return 'unknown-cursor';
      select = select.where('position', query.order === 'asc' ? '>' : '<', cursor);
    }
    // One more than asked, to tell whether there are more.
    const rows = await select.orderBy('position', query.order).limit(query.limit + 1).execute();
    return { items: rows.slice(0, query.limit).map((row) => JSON.parse(row.item) as Item), hasMore: rows.length > query.limit };
  }

  /** The item by ID, if the owner's conversation holds it. */
  async item(id: string, ownerId: string, itemId: string): Promise<Item | undefined> {
    const row = await this.db
      .selectFrom('conversation_items')
      .innerJoin('conversations', 'conversations.id', 'conversation_items.conversation_id')
      .select('conversation_items.item')
      .where('conversations.id', '=', id)
      .where('conversations.owner_id', '=', ownerId)
      .where('conversation_items.item_id', '=', itemId)
      .orderBy('conversation_items.position', 'asc')
      .executeTakeFirst();
    return row && (JSON.parse(row.item) as Item);
  }

  /** Removes the item from the owner's conversation; false when either is not there. */
  async deleteItem(id: string, ownerId: string, itemId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx.selectFrom('conversations').select('id').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (!owned) return false;
      const result = await trx.deleteFrom('conversation_items').where('conversation_id', '=', id).where('item_id', '=', itemId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  private async positionOf(id: string, itemId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('conversation_items').select('position').where('conversation_id', '=', id).where('item_id', '=', itemId).orderBy('position', 'asc').executeTakeFirst();
    return row === undefined ? undefined : Number(row.position);
  }
}

function itemRows(conversationId: string, firstPosition: number, items: readonly Item[]) {
  return items.map((item, index) => ({ conversation_id: conversationId, position: firstPosition + index, item_id: String(item.id), item: JSON.stringify(item) }));
}
