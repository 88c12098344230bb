import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One entry of `CONNECTOR_ALLOWED_HOSTS`: a host name or address (any port, or one port), or a CIDR range. */
export type AllowedHost =
  | { readonly kind: 'name'; readonly name: string; readonly port: number | null }
  | { readonly kind: 'cidr'; readonly range: [ipaddr.IPv4 | ipaddr.IPv6, number]; readonly port: number | null };

/**
 * Parses `CONNECTOR_ALLOWED_HOSTS` (PRODUCT §2.14): comma-separated `host` (any port), `host:port`,
 * `[v6]:port`, an address, or a CIDR (`10.0.0.0/8`, `fd00::/8`). Empty: nothing is allowed.
 * @returns the entries and a sentence per bad entry (naming its position, not echoing it).
 */
export function parseAllowedHosts(text: string): { hosts: AllowedHost[]; problems: string[] } {
  const hosts: AllowedHost[] = [];
  const problems: string[] = [];
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .forEach((entry, i) => {
      const parsed = parseEntry(entry);
      if (parsed) hosts.push(parsed);
      else problems.push(`CONNECTOR_ALLOWED_HOSTS entry ${i + 1} is not a host, host:port, address or CIDR`);
    });
  return { hosts, problems };
}

function parseEntry(entry: string): AllowedHost | null {
  if (entry.includes('/')) {
    try {
      return { kind: 'cidr', range: ipaddr.parseCIDR(entry), port: null };
    } catch {
      return null;
    }
  }
  let host = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const hostPort = /^([^:]+):(\d+)$/.exec(entry);
  if (bracketed) [host, port] = [bracketed[1] as string, bracketed[2] ? Number(bracketed[2]) : null];
  else if (hostPort) [host, port] = [hostPort[1] as string, Number(hostPort[2])];
  if (port !== null && (port < 1 || port > 65535)) return null;
  if (isIP(host) !== 0) return { kind: 'cidr', range: [ipaddr.parse(host), isIP(host) === 4 ? 32 : 128], port };
  if (!/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(host)) return null;
  return { kind: 'name', name: host.toLowerCase(), port };
}

function inRange(address: string, entry: Extract<AllowedHost, { kind: 'cidr' }>): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const [range, bits] = entry.range;
  const base =
    range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() ? (range as ipaddr.IPv6).toIPv4Address() : range;
  return parsed.kind() === base.kind() && parsed.match(base, bits);
}

const portOk = (entry: AllowedHost, port: number) => entry.port === null || entry.port === port;

/** True when the URL's host (a name or an address literal) and port are allowed: checked at registration. */
export function hostAllowed(hosts: readonly AllowedHost[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return hosts.some((e) => portOk(e, port) && (e.kind === 'name' ? e.name === name : isIP(name) !== 0 && inRange(name, e)));
}

/**
 * The check at connect time, on the address the host resolved to: allowed when a CIDR/address
 * entry covers it, or when a name entry allowed the host and the address is not link-local
 * (cloud metadata, 169.254/16, fe80::/10), unspecified, multicast or broadcast (a name that
 * resolves there was not what the operator allowed).
 */
export function addressAllowed(hosts: readonly AllowedHost[], host: string, address: string, port: number): boolean {
  const name = host.toLowerCase();
  if (hosts.some((e) => e.kind === 'cidr' && portOk(e, port) && inRange(address, e))) return true;
  if (!hosts.some((e) => e.kind === 'name' && e.name === name && portOk(e, port))) return false;
  if (!ipaddr.isValid(address)) return false;
  return !['linkLocal', 'unspecified', 'multicast', 'broadcast'].includes(ipaddr.process(address).range());
}
