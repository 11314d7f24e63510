import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import type { TestGateway } from './start-gateway.js';

type Schemas = components['schemas'];

/**
 * The admin API of a test gateway, each call asserting its status.
 *
 * @example
 * const admin = adminApi(gateway);
 * const account = await admin.createAccount({ name: 'team', limits: { requests_per_minute: 5 } });
 * const { key } = await admin.createKey(account.id, { name: 'ci' });
 */
export function adminApi(gateway: Pick<TestGateway, 'origin' | 'adminKey'>) {
  const call = async <T>(method: string, path: string, body: unknown, status: number): Promise<T> => {
    const response = await fetch(`${gateway.origin}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${gateway.adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    assert.equal(response.status, status, `${method} ${path}: ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    createAccount: (body: Schemas['CreateAccountRequest']) => call<Schemas['Account']>('POST', '/accounts', body, 201),
    updateAccount: (id: string, body: Schemas['UpdateAccountRequest']) => call<Schemas['Account']>('PATCH', `/accounts/${id}`, body, 200),
    getAccount: (id: string) => call<Schemas['Account']>('GET', `/accounts/${id}`, undefined, 200),
    listAccounts: () => call<Schemas['AccountList']>('GET', '/accounts', undefined, 200),
    createKey: (accountId: string, body: Schemas['CreateKeyRequest']) => call<Schemas['CreatedKey']>('POST', `/accounts/${accountId}/keys`, body, 201),
    listKeys: (accountId: string) => call<Schemas['KeyList']>('GET', `/accounts/${accountId}/keys`, undefined, 200),
    revokeKey: (id: string) => call<Schemas['Key']>('DELETE', `/keys/${id}`, undefined, 200),
    usage: (query: Record<string, string>) => call<Schemas['UsageReport']>('GET', `/usage?${new URLSearchParams(query)}`, undefined, 200),
  };
}

/**
 * The secret of the one key of a new account with these permissions and limits (typed loosely, so a test
 * may send what the contract would refuse).
 *
 * @example const key = await keyOfNewAccount(gateway, { permissions: { capabilities: [] } });
 */
export async function keyOfNewAccount(
  gateway: Pick<TestGateway, 'origin' | 'adminKey'>,
  grants: { permissions?: Record<string, unknown>; limits?: Record<string, unknown> },
): Promise<string> {
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name: 'one key', ...grants });
  return (await admin.createKey(account.id, { name: 'k' })).key;
}
