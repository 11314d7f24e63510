// The Lua behind RedisLimitStore. A script runs atomically on the Redis server, so every scope is checked
// and counted with no other instance's request in between. Keep the rules alike to grantOutput(),
// amountWithGrant() and isOverLimit() (plan-reserve-checks.ts), which MemoryLimitStore runs. Amounts go to
// INCRBY formatted with '%.0f': Lua would print a large number as 1e+15, which INCRBY rejects.
import { minimumOutputGrant } from './plan-reserve-checks.js';
import { RedisScript } from './redis-script.js';

/** ARGV slots per check in the reserve script. */
export const reserveArgsPerCheck = 6;

/**
 * Grants a flexible request its output cap, checks every limit and, only if all pass, counts the request
 * against all of them.
 * KEYS: one per check. ARGV: now, lease ID, lease expiry, flexible (1/0), up-to, then per check: kind,
 * ceiling, amount, per granted token, bounds the grant (1/0), ttl ms.
 * Returns {grant} when admitted, otherwise {grant, check index (1-based), used, ...} for every check that refused.
 */
export const reserveScript = new RedisScript(`
local now, lease_id, lease_expiry = ARGV[1], ARGV[2], ARGV[3]
local flexible, up_to = ARGV[4] == '1', tonumber(ARGV[5])
local function arg(i, slot) return ARGV[5 + (i - 1) * ${reserveArgsPerCheck} + slot] end
local used = {}
for i, key in ipairs(KEYS) do
  if arg(i, 1) == 'lease' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    used[i] = redis.call('ZCARD', key)
  else
    used[i] = tonumber(redis.call('GET', key) or '0')
  end
end
local grant = 0
if flexible then
  grant = up_to
  for i = 1, #KEYS do
    if arg(i, 5) == '1' then
      local room = math.floor((tonumber(arg(i, 2)) - used[i] - tonumber(arg(i, 3))) / tonumber(arg(i, 4)))
      if room < grant then grant = room end
    end
  end
  local at_least = math.min(${minimumOutputGrant}, up_to)
  if grant < at_least then grant = at_least end
end
local amounts = {}
local reply = {grant}
for i = 1, #KEYS do
  amounts[i] = tonumber(arg(i, 3)) + math.ceil(grant * tonumber(arg(i, 4)))
  if used[i] + amounts[i] > tonumber(arg(i, 2)) then
    reply[#reply + 1] = i
    reply[#reply + 1] = used[i]
  end
end
if #reply > 1 then return reply end
for i, key in ipairs(KEYS) do
  local kind, ttl = arg(i, 1), arg(i, 6)
  if kind == 'counter' then
    redis.call('INCRBY', key, string.format('%.0f', amounts[i]))
    redis.call('PEXPIRE', key, ttl)
  else
    redis.call('ZADD', key, lease_expiry, lease_id)
    redis.call('PEXPIRE', key, ttl)
  end
end
return reply
`);

/**
 * Finishes a reservation. KEYS: one per step. ARGV: lease ID, then per step: kind, amount, ttl ms.
 * `adjust` leaves a minute that already expired alone rather than recreating it without a TTL; `add`
 * creates a spend total if needed. Neither goes below 0.
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
    local value = redis.call('INCRBY', key, amount)
    if value < 0 then redis.call('INCRBY', key, -value) end
    redis.call('PEXPIRE', key, ttl)
  end
end
return 0
`);
