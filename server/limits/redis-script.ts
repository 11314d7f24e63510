import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its SHA1 (EVALSHA), so only the hash crosses the wire; when the server does not
 * know it yet (first call, restart, SCRIPT FLUSH) it is sent whole once with EVAL, which also caches it.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(client: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
