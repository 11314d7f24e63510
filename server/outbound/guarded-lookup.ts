import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { BlockedAddressError } from './outbound-refusal.js';

/**
 * A `lookup` for `net.connect` (undici passes its `connect` options through) that resolves the name as
 * usual and refuses when any answer is an address the policy forbids. Checking here, at connect time,
 * rather than before the request closes the gap a second DNS answer would open (DNS rebinding): the
 * address checked is the address connected to. IP literals never reach a lookup; the fetcher checks them.
 *
 * Every answer must pass, not only the one tried first: with Happy Eyeballs (`autoSelectFamily`, on by
 * default in Node 20) net may try any of them.
 *
 * @example
 * const agent = new Agent({ connect: { lookup: guardedLookup(new AddressPolicy([])) } });
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, answers: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const forbidden = !policy.trustsHostname(hostname) && answers.some((answer) => !policy.permitsAddress(answer.address));
      if (forbidden) return callback(new BlockedAddressError(hostname), '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, answers);
      const first = answers[0]!;
      callback(null, first.address, first.family);
    });
  };
}
