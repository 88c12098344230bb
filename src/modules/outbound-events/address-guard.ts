import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A delivery URL or the address it resolves to is not allowed (SSRF guard, PRODUCT §2.8). */
export class ForbiddenDestinationError extends Error {
  readonly code = 'ERR_FORBIDDEN_DESTINATION';
}

/** IPv4-compatible IPv6 (`::a.b.c.d`, RFC 4291 §2.5.5.1, deprecated): refused whole, whatever it embeds. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * True when `address` (an IPv4 or IPv6 literal) may not receive deliveries (issue 23 item 5):
 * everything but ipaddr.js's `unicast` range, i.e. loopback, private (RFC 1918, fc00::/7 incl.
 * the metadata address fd00:ec2::254), link-local (169.254/16 incl. 169.254.169.254, fe80::/10),
 * CGNAT (100.64/10), multicast, unspecified, broadcast, reserved; and every IPv6 form that embeds
 * an IPv4 address: IPv4-compatible `::/96` (`::127.0.0.1`, `::7f00:1`, `::8.8.8.8`), NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, SIIT
 * `::ffff:0:0:0/96`, all refused whole; an ISATAP interface identifier (`…:0:5efe:a.b.c.d` or
 * `…:200:5efe:a.b.c.d`) refused when the IPv4 it embeds is. IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is judged as the IPv4 address it maps (the socket connects to that one).
 * Anything that does not parse is forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  const canonical = address.includes(':') ? canonicalIPv6(address) : address;
  if (canonical === null || !ipaddr.isValid(canonical)) return true;
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() !== 'unicast';
  if (v6.match(IPV4_COMPATIBLE)) return true;
  if (v6.range() !== 'unicast') return true;
  const embedded = isatapIPv4(v6);
  return embedded !== null && embedded.range() !== 'unicast';
}

/**
 * An IPv6 literal in the WHATWG URL parser's canonical form, without a zone (`%eth0`), or null
 * when it does not parse. ipaddr.js reads `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`), and
 * glibc's resolver prints IPv4-compatible addresses that way: the URL parser reads it right
 * (`::808:808`).
 */
function canonicalIPv6(address: string): string | null {
  const bare = address.replace(/%.*$/, '');
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The IPv4 address in an ISATAP interface identifier (RFC 5214: `0000:5efe` or `0200:5efe`, then the IPv4), or null. */
function isatapIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  if ((parts[4] === 0 || parts[4] === 0x200) && parts[5] === 0x5efe) {
    const [p6, p7] = [parts[6] ?? 0, parts[7] ?? 0];
    return new ipaddr.IPv4([p6 >> 8, p6 & 0xff, p7 >> 8, p7 & 0xff]);
  }
  return null;
}

/**
 * Checks an endpoint URL before it is stored and before each delivery: `https://` only (plain
 * `http://` too when `allowPrivate`), no user-info, and a literal IP host must pass
 * {@link isForbiddenAddress}. Host spellings are those of the WHATWG URL parser, so the decimal
 * `2130706433` and octal `0177.0.0.1` hosts are judged as `127.0.0.1`. Names are checked when
 * they are resolved ({@link guardedLookup}).
 * @throws ForbiddenDestinationError with a message naming the rule broken (never the URL).
 */
export function checkDestination(url: string, allowPrivate: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ForbiddenDestinationError('the URL is not a valid absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol))
    throw new ForbiddenDestinationError(
      allowPrivate
        ? 'the URL must use https:// or http://'
        : 'the URL must use https:// (http:// needs OUTBOUND_ALLOW_PRIVATE_NETWORKS=true)',
    );
  if (parsed.username || parsed.password) throw new ForbiddenDestinationError('the URL must not carry credentials');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
    throw new ForbiddenDestinationError(
      'the URL points to a private, loopback, link-local or reserved address (a receiver on this machine or a closed network needs OUTBOUND_ALLOW_PRIVATE_NETWORKS=true)',
    );
  }
  return parsed;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`/`net.connect` that resolves every address of the name and
 * refuses the connection when any of them is forbidden ({@link isForbiddenAddress}), unless
 * `allowPrivate`. The socket connects to an address this function checked: there is no second
 * DNS lookup between check and connect (DNS rebinding).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0) return callback(new ForbiddenDestinationError('the host name has no address'), []);
      if (!allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) {
        return callback(new ForbiddenDestinationError('the host name resolves to a forbidden address'), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
