/**
 * Connection strings as people paste them: the password is often not URI-encoded, so the user
 * info runs from after `//` to the LAST `@` of the authority, and the password from the first `:`.
 */
export interface ParsedDsn {
  scheme: string;
  user?: string;
  password?: string;
  /** Raw `host[:port][,host[:port]…]` part. */
  hosts: string;
  host?: string;
  port?: string;
  /** Path without the leading slash, decoded. */
  database?: string;
  params: URLSearchParams;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function parseDsn(text: string): ParsedDsn | undefined {
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text.trim());
  if (!schemeMatch) return undefined;
  const rest = text.trim().slice(schemeMatch[0].length);
  const at = rest.lastIndexOf('@');
  const userInfo = at === -1 ? undefined : rest.slice(0, at);
  const afterUser = at === -1 ? rest : rest.slice(at + 1);
  const hostEnd = afterUser.search(/[/?#]/);
  const hosts = hostEnd === -1 ? afterUser : afterUser.slice(0, hostEnd);
  const tail = hostEnd === -1 ? '' : afterUser.slice(hostEnd);
  const queryAt = tail.indexOf('?');
  const path = (queryAt === -1 ? tail : tail.slice(0, queryAt)).replace(/#.*$/, '');
  const query = queryAt === -1 ? '' : tail.slice(queryAt + 1).replace(/#.*$/, '');

  const parsed: ParsedDsn = { scheme: schemeMatch[1]!.toLowerCase(), hosts, params: new URLSearchParams(query) };
  if (userInfo !== undefined) {
    const colon = userInfo.indexOf(':');
    parsed.user = decode(colon === -1 ? userInfo : userInfo.slice(0, colon));
    if (colon !== -1) parsed.password = decode(userInfo.slice(colon + 1));
  }
  const first = hosts.split(',')[0] ?? '';
  const hostPort = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(first);
  if (hostPort) {
    const host = decode(hostPort[1] ?? '');
    if (host) parsed.host = host.startsWith('[') ? host.slice(1, -1) : host;
    if (hostPort[2]) parsed.port = hostPort[2];
  }
  const database = decode(path.replace(/^\//, ''));
  if (database) parsed.database = database;
  return parsed;
}

/** The same string with the user and password URI-encoded (for drivers that parse strictly). */
export function encodeDsnCredentials(text: string): string {
  const parsed = parseDsn(text);
  if (!parsed || parsed.user === undefined) return text;
  const trimmed = text.trim();
  const schemeEnd = trimmed.indexOf('://') + 3;
  const at = trimmed.lastIndexOf('@');
  const credentials =
    encodeURIComponent(parsed.user) + (parsed.password !== undefined ? `:${encodeURIComponent(parsed.password)}` : '');
  return trimmed.slice(0, schemeEnd) + credentials + trimmed.slice(at);
}
