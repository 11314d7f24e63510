// Lua that renews concurrency leases for RedisLimitStore.renew; keep it alike to MemoryLimitStore.renew.
import { RedisScript } from './redis-script.js';

/**
 * Pushes a lease's expiry to `new_expiry` in every set where it is still held (present and not yet expired
 * at `now`), and keeps each such set alive as long. A lease that is gone is not added back: its slot may
 * have been given to another request since, and re-adding it would overrun the limit.
 * KEYS: lease sets. ARGV: now, lease ID, new expiry, ttl ms. Returns how many leases were renewed.
 */
export const renewScript = new RedisScript(`
local now, lease_id, new_expiry, ttl = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local renewed = 0
for _, key in ipairs(KEYS) do
  local expiry = redis.call('ZSCORE', key, lease_id)
  if expiry and tonumber(expiry) > now then
    redis.call('ZADD', key, 'XX', new_expiry, lease_id)
    redis.call('PEXPIRE', key, ttl)
    renewed = renewed + 1
  end
end
return renewed
`);
