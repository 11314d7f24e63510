// The Lua behind RedisLimitStore. A script runs atomically on the Redis server, so every scope is checked
// and counted with no other instance's request in between. Keep the rules alike to isOverLimit() and
// MemoryLimitStore. Amounts go to INCRBY as the strings they arrived as: Lua would print a large number
// as 1e+15, which INCRBY rejects.
import { RedisScript } from './redis-script.js';

/**
 * Checks every limit and, only if all pass, counts the request against all of them.
 * KEYS: one per check. ARGV: now, lease ID, lease expiry, then per check: kind, ceiling, amount, ttl ms.
 * Returns {} when admitted, otherwise {check index (1-based), used, ...} for every check that refused.
 */
export const reserveScript = new RedisScript(`
local now, lease_id, lease_expiry = ARGV[1], ARGV[2], ARGV[3]
local refused = {}
for i, key in ipairs(KEYS) do
  local base = 3 + (i - 1) * 4
  local kind, ceiling, amount = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  local used
  if kind == 'lease' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    used = redis.call('ZCARD', key)
  else
    used = tonumber(redis.call('GET', key) or '0')
  end
  local over
  if kind == 'total' then over = used >= ceiling else over = used + amount > ceiling end
  if over then
    refused[#refused + 1] = i
    refused[#refused + 1] = used
  end
end
if #refused > 0 then return refused end
for i, key in ipairs(KEYS) do
  local base = 3 + (i - 1) * 4
  local kind, amount, ttl = ARGV[base + 1], ARGV[base + 3], ARGV[base + 4]
  if kind == 'counter' then
    redis.call('INCRBY', key, amount)
    redis.call('PEXPIRE', key, ttl)
  elseif kind == 'lease' then
    redis.call('ZADD', key, lease_expiry, lease_id)
    redis.call('PEXPIRE', key, ttl)
  end
end
return refused
`);

/**
 * Finishes a reservation. KEYS: one per step. ARGV: lease ID, then per step: kind, amount, ttl ms.
 * `adjust` leaves a minute that already expired alone rather than recreating it without a TTL.
 */
export const settleScript = new RedisScript(`
local lease_id = ARGV[1]
for i, key in ipairs(KEYS) do
  local base = 1 + (i - 1) * 3
  local kind, amount, ttl = ARGV[base + 1], ARGV[base + 2], ARGV[base + 3]
  if kind == 'release' then
    redis.call('ZREM', key, lease_id)
  elseif kind == 'adjust' then
    if redis.call('EXISTS', key) == 1 then
      local value = redis.call('INCRBY', key, amount)
      if value < 0 then redis.call('INCRBY', key, -value) end
    end
  elseif kind == 'add' then
    redis.call('INCRBY', key, amount)
    redis.call('PEXPIRE', key, ttl)
  end
end
return 0
`);
