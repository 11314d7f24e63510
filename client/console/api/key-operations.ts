import { unwrap, type components, type GatewayClient } from '../../index.js';

type Key = components['schemas']['Key'];
type CreatedKey = components['schemas']['CreatedKey'];

/**
 * What a keys list can do, whichever API stands behind it: the signed-in key's own subtree (`/v1/keys`), one
 * account's keys as the admin sees them, or every key. `create` is absent where a list cannot create.
 */
export interface KeyOperations {
  list(): Promise<Key[]>;
  create?(name: string): Promise<CreatedKey>;
  rename(keyId: string, name: string): Promise<unknown>;
  revoke(keyId: string): Promise<unknown>;
}

/** The signed-in key and the keys minted from it, transitively. */
export function myKeys(client: GatewayClient): KeyOperations {
  return {
    list: async () => unwrap(await client.GET('/v1/keys')).data,
    create: async (name) => unwrap(await client.POST('/v1/keys', { body: { name } })),
    rename: async (key_id, name) => unwrap(await client.PATCH('/v1/keys/{key_id}', { params: { path: { key_id } }, body: { name } })),
    revoke: async (key_id) => unwrap(await client.DELETE('/v1/keys/{key_id}', { params: { path: { key_id } } })),
  };
}

/** One account's keys, through the admin API. */
export function accountKeys(client: GatewayClient, account_id: string): KeyOperations {
  return {
    list: async () => unwrap(await client.GET('/admin/v1/accounts/{account_id}/keys', { params: { path: { account_id } } })).data,
    create: async (name) => unwrap(await client.POST('/admin/v1/accounts/{account_id}/keys', { params: { path: { account_id } }, body: { name } })),
    ...adminRenameAndRevoke(client),
  };
}

/** Every key of every account, through the admin API (keys are created on their account's page). */
export function allKeys(client: GatewayClient): KeyOperations {
  return {
    list: async () => unwrap(await client.GET('/admin/v1/keys')).data,
    ...adminRenameAndRevoke(client),
  };
}

function adminRenameAndRevoke(client: GatewayClient): Pick<KeyOperations, 'rename' | 'revoke'> {
  return {
    rename: async (key_id, name) => unwrap(await client.PATCH('/admin/v1/keys/{key_id}', { params: { path: { key_id } }, body: { name } })),
    revoke: async (key_id) => unwrap(await client.DELETE('/admin/v1/keys/{key_id}', { params: { path: { key_id } } })),
  };
}
