import { isIP } from 'node:net';

/*
 * Why a string variable's value is refused, or undefined when it is accepted. Each message follows
 * the variable's name in a ConfigError ("REDIS_URL: must start with …").
 */

export function httpUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `must be an absolute http(s) URL, got "${raw}"`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must use http or https, got "${url.protocol}"`;
  return undefined;
}

export const POSTGRES_URL = /^postgres(ql)?:\/\//;

export function databaseUrlProblem(raw: string): string | undefined {
  if (POSTGRES_URL.test(raw)) return URL.canParse(raw) ? undefined : 'is not a valid postgres:// URL';
  if (raw.startsWith('sqlite:')) return undefined;
  return 'must start with postgres:// (or sqlite:<file>); leave it unset for the embedded store';
}

export function redisUrlProblem(raw: string): string | undefined {
  return /^rediss?:\/\//.test(raw) ? undefined : 'must start with redis:// or rediss://';
}

export function smtpUrlProblem(raw: string): string | undefined {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    return 'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587';
  }
  return undefined;
}

export function emailSenderProblem(raw: string): string | undefined {
  if (/^[^\r\n]*<?[^@\s<>]+@[^@\s<>]+>?$/.test(raw)) return undefined;
  return `must be an email address, optionally with a name ("Plotline <alerts@example.com>"), got "${raw}"`;
}

export function metricsTokenProblem(raw: string): string | undefined {
  if (raw.length >= 16 && !/\s/.test(raw) && new Set(raw).size >= 8) return undefined;
  return 'must be at least 16 characters without spaces, and not a repeated pattern (e.g. `openssl rand -hex 24`)';
}

/** An origin as browsers send it (`https://charts.example.com`, `http://localhost:4018`), or undefined. */
export function corsOrigin(item: string): string | undefined {
  const url = URL.canParse(item) ? new URL(item) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  // Scheme, host and port only: a path, query or credentials mean this is not an origin.
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '' && !/\/\/.*\/./.test(item);
  return bare ? url.origin : undefined;
}

export function corsOriginsProblem(raw: string): string | undefined {
  if (raw.trim() === '*') return undefined;
  const items = listItems(raw);
  if (items.length === 0) return 'must be `*` or a comma-separated list of origins';
  const bad = items.find((item) => corsOrigin(item) === undefined);
  return bad === undefined ? undefined : `"${bad}" is not an origin (scheme, host and optional port, e.g. https://charts.example.com), nor \`*\``;
}

const HOST_NAME = /^(?=.{1,253}$)([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)(\.[a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?)*\.?$/;

/** The items of a comma-separated list, trimmed, empty ones dropped. */
export function listItems(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A CIDR or IP address as written, a host name in lower case; undefined when it is none of those. */
export function allowListEntry(item: string): string | undefined {
  const [address, bits, ...rest] = item.split('/');
  if (rest.length === 0 && address !== undefined && isIP(address) !== 0) {
    if (bits === undefined) return item;
    const max = isIP(address) === 4 ? 32 : 128;
    if (/^\d+$/.test(bits) && Number(bits) <= max) return item;
  } else if (bits === undefined && address !== undefined && HOST_NAME.test(address)) {
    return item.toLowerCase();
  }
  return undefined;
}

export function allowListProblem(raw: string): string | undefined {
  const bad = listItems(raw).find((item) => allowListEntry(item) === undefined);
  return bad === undefined ? undefined : `"${bad}" is neither a CIDR, an IP address nor a host name`;
}
