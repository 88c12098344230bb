import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A delivery URL or the address it resolves to is not allowed (SSRF guard, PRODUCT §2.8). */
export class ForbiddenDestinationError extends Error {
  readonly code = 'ERR_FORBIDDEN_DESTINATION';
}

/**
 * True when `address` (an IPv4 or IPv6 literal) may not receive deliveries: everything but
 * ipaddr.js's `unicast` range, i.e. loopback, private (RFC 1918, fc00::/7 incl. the metadata
 * address fd00:ec2::254), link-local (169.254/16 incl. 169.254.169.254, fe80::/10), CGNAT
 * (100.64/10), multicast, unspecified, broadcast, reserved, and IPv6 prefixes that embed an
 * IPv4 address (NAT64, 6to4, Teredo). IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the
 * IPv4 address it maps. Anything that does not parse is forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  return parsed.range() !== 'unicast';
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
