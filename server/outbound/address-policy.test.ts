import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AddressPolicy, allowEntryProblem, unmapAddress } from './address-policy.js';

describe('AddressPolicy', () => {
  const nothingAllowed = new AddressPolicy([]);

  test('refuses loopback, private, link-local, metadata, CGNAT, unspecified, multicast and reserved addresses', () => {
    const refused = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'ff02::1',
    ];
    for (const address of refused) assert.equal(nothingAllowed.permitsAddress(address), false, address);
  });

  test('permits public addresses, including neighbours of the blocked ranges', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '11.0.0.1']) {
      assert.equal(nothingAllowed.permitsAddress(address), true, address);
    }
  });

  test('judges IPv4 carried in IPv6 (mapped, NAT64) as that IPv4 address', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '64:ff9b::a00:1']) {
      assert.equal(nothingAllowed.permitsAddress(address), false, address);
    }
    assert.equal(nothingAllowed.permitsAddress('::ffff:808:808'), true, '8.8.8.8 mapped');
    assert.equal(unmapAddress('::ffff:7f00:1'), '127.0.0.1');
    assert.equal(unmapAddress('64:ff9b::a9fe:a9fe'), '169.254.169.254');
  });

  test('the allow-list opens addresses, ranges and hostnames, and nothing else', () => {
    const policy = new AddressPolicy(['127.0.0.1', '10.1.0.0/16', 'fd12::/16', 'Images.Intranet.Example']);
    assert.equal(policy.permitsAddress('127.0.0.1'), true);
    assert.equal(policy.permitsAddress('::ffff:127.0.0.1'), true, 'the same address, mapped');
    assert.equal(policy.permitsAddress('127.0.0.2'), false);
    assert.equal(policy.permitsAddress('10.1.200.3'), true);
    assert.equal(policy.permitsAddress('10.2.0.1'), false);
    assert.equal(policy.permitsAddress('fd12::5'), true);
    assert.equal(policy.permitsAddress('fd13::5'), false);
    assert.equal(policy.trustsHostname('images.intranet.example.'), true, 'case and trailing dot do not matter');
    assert.equal(policy.trustsHostname('other.intranet.example'), false);
  });

  test('metadata service names are refused unless allow-listed by name', () => {
    assert.equal(nothingAllowed.refusesHostname('metadata.google.internal'), true);
    assert.equal(nothingAllowed.refusesHostname('METADATA.google.internal.'), true);
    assert.equal(nothingAllowed.refusesHostname('example.com'), false);
    assert.equal(new AddressPolicy(['metadata.google.internal']).refusesHostname('metadata.google.internal'), false);
  });
});

test('allowEntryProblem accepts hostnames, IPs and CIDR ranges and says what is wrong with the rest', () => {
  for (const entry of ['localhost', 'images.example.com', '127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8']) assert.equal(allowEntryProblem(entry), undefined, entry);
  assert.match(allowEntryProblem('10.0.0.0/33')!, /0–32/);
  assert.match(allowEntryProblem('fd00::/129')!, /0–128/);
  assert.match(allowEntryProblem('example.com/8')!, /IP address before the \//);
  assert.match(allowEntryProblem('http://example.com')!, /hostname, an IP address or a CIDR range/);
  assert.match(allowEntryProblem('example.com:8080')!, /hostname, an IP address or a CIDR range/);
});
