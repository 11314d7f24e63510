import { BlockList, isIP } from 'node:net';

/**
 * Addresses a user-supplied URL must not reach: the gateway's own machine, its private network and the
 * cloud metadata service. Anything here would let a client use the gateway to read what only the gateway
 * can see (server-side request forgery).
 *
 * Sources: IANA's special-purpose registries for IPv4 and IPv6
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/, …/iana-ipv6-special-registry/).
 */
const blockedRanges: ReadonlyArray<{ network: string; prefix: number; why: string }> = [
  { network: '0.0.0.0', prefix: 8, why: '"this network"; 0.0.0.0 reaches the local host on Linux' },
  { network: '10.0.0.0', prefix: 8, why: 'private' },
  { network: '100.64.0.0', prefix: 10, why: 'carrier-grade NAT; Alibaba Cloud metadata is 100.100.100.200' },
  { network: '127.0.0.0', prefix: 8, why: 'loopback' },
  { network: '169.254.0.0', prefix: 16, why: 'link-local; AWS, GCP and Azure metadata is 169.254.169.254' },
  { network: '172.16.0.0', prefix: 12, why: 'private' },
  { network: '192.0.0.0', prefix: 24, why: 'IETF protocol assignments' },
  { network: '192.168.0.0', prefix: 16, why: 'private' },
  { network: '198.18.0.0', prefix: 15, why: 'benchmarking' },
  { network: '224.0.0.0', prefix: 4, why: 'multicast' },
  { network: '240.0.0.0', prefix: 4, why: 'reserved, and the broadcast address' },
  { network: '::', prefix: 128, why: 'unspecified' },
  { network: '::1', prefix: 128, why: 'loopback' },
  { network: 'fc00::', prefix: 7, why: 'unique local (private); AWS IPv6 metadata is fd00:ec2::254' },
  { network: 'fe80::', prefix: 10, why: 'link-local' },
  { network: 'ff00::', prefix: 8, why: 'multicast' },
];

/** Names of metadata services, refused by name too in case a resolver other than the system's answers for them. */
const metadataHostnames = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

const blocked = new BlockList();
for (const { network, prefix } of blockedRanges) blocked.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');

/**
 * IPv4 addresses in IPv6 clothing, judged as the IPv4 address they carry: IPv4-mapped (`::ffff:127.0.0.1`,
 * which the URL parser writes `::ffff:7f00:1`) and NAT64's well-known prefix (`64:ff9b::10.0.0.1`, which a
 * NAT64 gateway forwards to that IPv4 address).
 */
const ipv4Embedded = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i;

/**
 * The address as plain IPv4 when IPv6 embeds one (see above), else as it was (brackets removed).
 *
 * @example
 * unmapAddress('[::ffff:7f00:1]'); // '127.0.0.1'
 */
export function unmapAddress(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const match = ipv4Embedded.exec(bare);
  if (!match) return bare;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Lower case without the trailing dot a fully qualified name may carry (`metadata.google.internal.`). */
function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/**
 * Why an `outbound.allow` entry is not usable, or undefined when it is: a hostname, an IP address or a
 * CIDR range (`10.1.0.0/16`, `fd00::/8`). Used by the config schema.
 *
 * @example
 * allowEntryProblem('127.0.0.1/33'); // 'prefix must be 0–32 for IPv4'
 */
export function allowEntryProblem(entry: string): string | undefined {
  const [network, prefix, extra] = entry.split('/');
  if (extra !== undefined) return 'expected a hostname, an IP address or a CIDR range';
  if (prefix !== undefined) {
    const family = isIP(network!);
    if (family === 0) return 'a CIDR range needs an IP address before the /';
    const max = family === 4 ? 32 : 128;
    if (!/^\d+$/.test(prefix) || Number(prefix) > max) return `prefix must be 0–${max} for IPv${family}`;
    return undefined;
  }
  if (isIP(entry) !== 0) return undefined;
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)
    ? undefined
    : 'expected a hostname, an IP address or a CIDR range';
}

/**
 * Decides which hosts and addresses a user-supplied URL may reach: every public address, and private
 * ones only when the operator allow-listed them (`outbound.allow`: hostnames, IPs or CIDR ranges).
 *
 * @example
 * const policy = new AddressPolicy(['127.0.0.1', 'images.intranet.example']);
 * policy.permitsAddress('127.0.0.1'); // true (allow-listed)
 * policy.permitsAddress('10.0.0.7'); // false (private)
 * policy.permitsAddress('93.184.215.14'); // true (public)
 */
export class AddressPolicy {
  private readonly allowedHostnames = new Set<string>();
  private readonly allowedAddresses = new BlockList();

  constructor(allow: readonly string[]) {
    for (const entry of allow) {
      const [network, prefix] = entry.split('/');
      const address = unmapAddress(network!);
      const family = isIP(address);
      if (family === 0) this.allowedHostnames.add(normaliseHostname(entry));
      else if (prefix === undefined) this.allowedAddresses.addAddress(address, family === 6 ? 'ipv6' : 'ipv4');
      else this.allowedAddresses.addSubnet(address, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** An allow-listed hostname may resolve to anything: the operator vouched for the name. */
  trustsHostname(hostname: string): boolean {
    return this.allowedHostnames.has(normaliseHostname(hostname));
  }

  /** Metadata service names are refused before any lookup unless allow-listed by name. */
  refusesHostname(hostname: string): boolean {
    const name = normaliseHostname(hostname);
    return metadataHostnames.has(name) && !this.allowedHostnames.has(name);
  }

  /** Whether a connection to this IP address (a literal in the URL or a DNS answer) may be made. */
  permitsAddress(address: string): boolean {
    const plain = unmapAddress(address);
    const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedAddresses.check(plain, type)) return true;
    return !blocked.check(plain, type);
  }
}
