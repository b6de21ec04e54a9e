import { BlockList, isIP } from "node:net";
import { trimTrailing } from "../platform/trim-runs.js";

/**
 * Addresses a tool that fetches what a model names must not reach: this machine, private and link-local networks
 * (a cloud's metadata service among them), and ranges that are not ordinary destinations. ADK's `load_web_page`
 * list, kept in Node's own `BlockList` (which also matches IPv4 addresses written as IPv4-mapped IPv6).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, where clouds serve instance metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (private)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed by some stacks)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether `address` (an IPv4 or IPv6 address, as a resolver gives it) is one a fetch on a model's behalf must not
 * reach. Beyond ADK's list, an IPv6 address that carries an IPv4 address inside it is judged by that address too:
 * IPv4-compatible (`::a.b.c.d`), the well-known NAT64 prefix (`64:ff9b::/96`) and 6to4 (`2002::/16`) all lead to
 * it. Anything that is not an address at all counts as blocked.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  if (blocked.check(address, "ipv6")) return true;
  const embedded = embeddedIpv4(address);
  return embedded !== undefined && blocked.check(embedded, "ipv4");
}

/** The IPv4 address an IPv6 address leads to by its form, if it has one (see {@link isBlockedAddress}). */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return undefined;
  const asIpv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  // IPv4-compatible ::a.b.c.d (but not :: and ::1, which are in the list themselves).
  if (groups.slice(0, 6).every((group) => group === 0)) return asIpv4(groups[6]!, groups[7]!);
  // NAT64's well-known prefix 64:ff9b::/96.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return asIpv4(groups[6]!, groups[7]!);
  // 6to4: 2002:aabb:ccdd::/48 leads to aa.bb.cc.dd.
  if (groups[0] === 0x2002) return asIpv4(groups[1]!, groups[2]!);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] | undefined {
  const withoutZone = address.split("%")[0]!;
  const [head, tail] = withoutZone.includes("::") ? withoutZone.split("::") : [withoutZone, undefined];
  const read = (text: string | undefined): number[] => {
    if (!text) return [];
    const groups: number[] = [];
    for (const piece of text.split(":")) {
      if (piece.includes(".")) {
        const octets = piece.split(".").map(Number);
        groups.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
      } else groups.push(Number.parseInt(piece, 16));
    }
    return groups;
  };
  const front = read(head);
  const back = read(tail);
  const groups = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

/** Whether a host name names this machine by name (`localhost` and anything under it), whatever its case or final dot. */
export function isLocalHostName(hostname: string): boolean {
  const name = trimTrailing(hostname, ".").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost");
}
