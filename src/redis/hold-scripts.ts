/**
 * The two Lua scripts of a key held by one holder at a time (a shard's lease, a cache load's
 * claim): taken or renewed atomically, let go only by its holder, since it may have lapsed and
 * been taken by another in between.
 */

/** KEYS[1] the key; ARGV holder, ttl ms. Takes the key when nobody holds it, or holds it longer when it is already ours: 1 when held. */
export const TAKE_OR_RENEW = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

/** KEYS[1] the key; ARGV holder. Lets go of the key only if this holder still has it. */
export const LET_GO = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
