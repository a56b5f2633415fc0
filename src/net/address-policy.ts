import { BlockList, isIP } from 'node:net';

/**
 * Addresses the service never sends a request to (client metadata documents, webhook endpoints):
 * loopback, private, link-local, shared, unspecified, multicast and reserved ranges, in IPv4
 * and IPv6. A client id URL or a webhook URL is chosen by someone else than the operator, so
 * the request must not become a way to reach the server's own network. IPv6 addresses that carry an IPv4 address are judged by it where
 * BlockList decodes them (IPv4-mapped, `::ffff:a.b.c.d`), and are refused whole where it does
 * not: IPv4-compatible (`::a.b.c.d`, deprecated), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002::/16`) and Teredo (`2001::/32`). No client
 * document is served from those, and each could lead to an IPv4 address of our own network.
 */
const BLOCKED = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['100::', 64],
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** True when `address` is one the service may send a request to. */
export function isPublicAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  if (family === 0) return false;
  return !BLOCKED.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

export function isLoopbackAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && LOOPBACK.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}
