import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { TargetNotAllowedError } from '../errors.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicyOptions {
  /** CIDRs, IP addresses or host names that may be reached although private (`PLOTLINE_ALLOW_PRIVATE_HOSTS`). */
  allowPrivateHosts?: readonly string[];
  /** Name resolution; the system resolver by default. Tests inject their own. */
  lookup?: HostLookup;
}

/** Cloud metadata services: never reachable, whatever the allow-list says. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'metadata.azure.internal']);
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254'].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

const cidrs = (list: string[]): Cidr[] => list.map((c) => ipaddr.parseCIDR(c) as Cidr);

/** Loopback, private, link-local, CGNAT, multicast, documentation, benchmarking, reserved, unspecified. */
const BLOCKED_V4 = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
]);

const BLOCKED_V6 = cidrs([
  '::/128',
  '::1/128',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
]);

/** Link-local ranges, where cloud metadata services answer; never a database. */
const LINK_LOCAL = cidrs(['169.254.0.0/16', 'fe80::/10', '0.0.0.0/8', '::/128']);

/** IPv6 forms that carry an IPv4 address, which is then judged as IPv4. */
const MAPPED = ipaddr.parseCIDR('::ffff:0:0/96') as Cidr;
const COMPATIBLE = ipaddr.parseCIDR('::/96') as Cidr;
const NAT64 = cidrs(['64:ff9b::/96', '64:ff9b:1::/48']);
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16') as Cidr;

export type AddressClass = 'public' | 'private' | 'metadata';

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromParts = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (address.match(MAPPED)) return address.toIPv4Address();
  if (NAT64.some((range) => address.match(range))) return fromParts(p[6]!, p[7]!);
  if (address.match(SIX_TO_FOUR)) return fromParts(p[1]!, p[2]!);
  // ::a.b.c.d (deprecated "IPv4-compatible"); :: and ::1 are judged as IPv6 below.
  if (address.match(COMPATIBLE) && (p[6]! !== 0 || p[7]! > 1)) return fromParts(p[6]!, p[7]!);
  return undefined;
}

/** Normalizes any IPv6 form carrying IPv4 to that IPv4, so one rule set judges both. */
function canonical(address: Address): Address {
  if (address.kind() === 'ipv6') return embeddedIPv4(address as ipaddr.IPv6) ?? address;
  return address;
}

export function classifyAddress(text: string): AddressClass {
  const address = canonical(parseAddress(text));
  if (METADATA_ADDRESSES.includes(address.toNormalizedString())) return 'metadata';
  const list = address.kind() === 'ipv4' ? BLOCKED_V4 : BLOCKED_V6;
  return list.some((range) => range[0].kind() === address.kind() && address.match(range)) ? 'private' : 'public';
}

function parseAddress(text: string): Address {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // Zone ids (fe80::1%eth0) do not change the range.
  return ipaddr.parse(bare.replace(/%.*$/, ''));
}

function normalizeHostname(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

const systemLookup: HostLookup = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/**
 * Decides which HTTP targets a source may reach. Only http and https; loopback, private,
 * link-local, CGNAT, multicast, reserved and unspecified ranges (IPv4 and IPv6, IPv4 carried in
 * IPv6 included) are refused unless the allow-list names the host or a CIDR containing the
 * address; cloud metadata addresses and names are always refused. A host is refused when any of
 * its addresses is.
 */
export class OutboundPolicy {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedRanges: Cidr[] = [];
  private readonly lookupHost: HostLookup;
  /** Database host names whose addresses were checked, until when (epoch ms). */
  private readonly safeDatabaseHosts = new Map<string, number>();

  constructor(options: OutboundPolicyOptions = {}) {
    this.lookupHost = options.lookup ?? systemLookup;
    for (const entry of options.allowPrivateHosts ?? []) {
      const item = entry.trim();
      if (!item) continue;
      if (item.includes('/') && ipaddr.isValidCIDR(item)) this.allowedRanges.push(ipaddr.parseCIDR(item) as Cidr);
      else if (isIP(item)) {
        const address = ipaddr.parse(item);
        this.allowedRanges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else this.allowedHosts.add(normalizeHostname(item));
    }
  }

  /** Checks what can be checked without DNS: scheme, metadata names and literal addresses. */
  checkUrl(url: URL | string): URL {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      throw new TargetNotAllowedError('The URL is not a valid absolute URL', 'invalid_url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new TargetNotAllowedError(`Only http and https URLs can be requested, not "${parsed.protocol}"`, 'invalid_scheme');
    }
    const host = normalizeHostname(parsed.hostname);
    if (!host) throw new TargetNotAllowedError('The URL has no host', 'invalid_url');
    if (METADATA_HOSTS.has(host)) throw this.metadata(host);
    if (isIP(host)) this.checkAddress(host, host);
    return parsed;
  }

  /** Resolves a host and returns its addresses once every one of them is allowed. */
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const host = normalizeHostname(hostname);
    if (METADATA_HOSTS.has(host)) throw this.metadata(host);
    const family = isIP(host);
    if (family) {
      this.checkAddress(host, host);
      return [{ address: host, family: family === 6 ? 6 : 4 }];
    }
    const found = await this.lookupHost(host);
    if (found.length === 0) throw new TargetNotAllowedError(`"${host}" does not resolve to any address`, 'invalid_url');
    for (const entry of found) this.checkAddress(entry.address, host);
    return found;
  }

  /**
   * Checks a database host (SQL, MongoDB). Databases usually live on private networks, so private
   * addresses are allowed; cloud metadata and link-local addresses never are (names resolved
   * here, every address checked). Unix socket paths are local by definition.
   */
  async checkDatabaseHost(hostname: string): Promise<void> {
    const host = normalizeHostname(hostname.trim());
    if (host === '' || host.startsWith('/')) return;
    if (METADATA_HOSTS.has(host)) throw this.metadata(host);
    // Runs call this every time: a name found safe is not looked up again for a minute.
    const until = this.safeDatabaseHosts.get(host);
    if (until !== undefined && until > Date.now()) return;
    const addresses = isIP(host) ? [{ address: host }] : await this.lookupHost(host).catch(() => []);
    // A name that does not resolve is left to the driver, which reports it as unreachable.
    for (const { address } of addresses) {
      let parsed: Address;
      try {
        parsed = canonical(parseAddress(address));
      } catch {
        continue;
      }
      if (classifyAddress(address) === 'metadata' || LINK_LOCAL.some((range) => range[0].kind() === parsed.kind() && parsed.match(range))) {
        throw this.metadata(host);
      }
    }
    if (addresses.length === 0 || isIP(host)) return;
    if (this.safeDatabaseHosts.size >= 1000) this.safeDatabaseHosts.clear();
    this.safeDatabaseHosts.set(host, Date.now() + 60_000);
  }

  /** Throws when `address` (reached through `hostname`) is not allowed. */
  checkAddress(address: string, hostname: string): void {
    let verdict: AddressClass;
    try {
      verdict = classifyAddress(address);
    } catch {
      throw new TargetNotAllowedError(`"${address}" is not a valid IP address`, 'invalid_url');
    }
    if (verdict === 'metadata') throw this.metadata(hostname);
    if (verdict === 'private' && !this.allows(address, hostname)) {
      const host = normalizeHostname(hostname);
      const what = isIP(host) ? `"${host}" is a private or reserved address` : `"${host}" resolves to a private or reserved address (${address})`;
      throw new TargetNotAllowedError(`${what}; add it to PLOTLINE_ALLOW_PRIVATE_HOSTS to allow it`, 'private_network');
    }
  }

  private allows(address: string, hostname: string): boolean {
    if (this.allowedHosts.has(normalizeHostname(hostname))) return true;
    const parsed = parseAddress(address);
    const forms = [parsed, canonical(parsed)];
    return this.allowedRanges.some((range) => forms.some((form) => form.kind() === range[0].kind() && form.match(range)));
  }

  private metadata(host: string): TargetNotAllowedError {
    return new TargetNotAllowedError(`"${host}" is a cloud metadata endpoint and can never be requested`, 'metadata_endpoint');
  }
}
