import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';

type Schemas = components['schemas'];

/**
 * The account key API (`/v1/keys`, `/v1/me`) as one key calls it on a test gateway. `mint` asserts its
 * 201; the others return the status too, since which keys answer 404 is what the tests are about.
 *
 * @example
 * const parent = myKeys(gateway.origin, parentSecret);
 * const child = await parent.mint('child');
 * assert.equal((await parent.revoke(child.id)).status, 200);
 */
export function myKeys(origin: string, secret: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${origin}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return {
    async mint(name: string): Promise<Schemas['CreatedKey']> {
      const answer = await call<Schemas['CreatedKey']>('POST', '/keys', { name });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    },
    /** POST /v1/keys whatever it answers. */
    tryMint: (name: string) => call<Schemas['CreatedKey']>('POST', '/keys', { name }),
    list: () => call<Schemas['KeyList']>('GET', '/keys'),
    rename: (id: string, name: string) => call<Schemas['Key']>('PATCH', `/keys/${encodeURIComponent(id)}`, { name }),
    revoke: (id: string) => call<Schemas['Key']>('DELETE', `/keys/${encodeURIComponent(id)}`),
    me: () => call<Schemas['Me']>('GET', '/me'),
    /** GET /v1/models: 200 for a key that authenticates, 401 for one that does not. */
    models: () => call<Schemas['ModelList']>('GET', '/models'),
  };
}
