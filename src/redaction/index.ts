/**
 * The one rule of what is secret and how it is hidden, for every place a secret could leave the
 * server: API responses (where a client may write MASK back to keep the stored value), messages
 * of source errors, and log lines. All three show MASK where a secret was.
 * Pure functions over decrypted values; nothing here touches the store or the key.
 */

/** What a secret reads as in a response, an error message or a log line. */
export const MASK = '********';

/** A value the caller sent as the placeholder although nothing is stored there to keep. */
export class MaskWithoutValue extends Error {
  constructor(readonly path: string) {
    super(`${path} is the placeholder "${MASK}" but no stored value exists there`);
  }
}

const SECRET_NAME = /authorization|cookie|token|key|secret|passw|^pass$|^pwd$|credential|signature|session/i;

/**
 * Names (of headers, options, query parameters, log fields) whose values are credentials. Errs
 * towards hiding: `X-Api-Key`, `client_secret`, `sessionid` and `Cookie` all count.
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The secret fields of a connection, and how each is hidden. `whole`: the value is the secret.
 * `credentials`: a connection string, whose user-info password and credential keywords are.
 * `by-name`: values under secret names anywhere inside (isSecretName). A list: those keys only
 * (a service account's ids and e-mail help recognise it; its private key is the secret).
 * These are also the connection columns stored encrypted.
 */
const CONNECTION_SECRETS = {
  password: 'whole',
  connectionString: 'credentials',
  options: 'by-name',
  authentication: ['token', 'pass'],
  firebaseServiceAccount: ['private_key'],
  sslKey: 'whole',
} as const satisfies Record<string, 'whole' | 'credentials' | 'by-name' | readonly string[]>;

export type ConnectionSecretField = keyof typeof CONNECTION_SECRETS;
export const CONNECTION_SECRET_FIELDS = Object.keys(CONNECTION_SECRETS) as ConnectionSecretField[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{key: "Authorization", value: "…"}`: the name sits in `key`, the secret in `value`. */
function isKeyValuePair(value: unknown): value is Record<string, unknown> & { key: string; value: unknown } {
  return isRecord(value) && typeof value['key'] === 'string' && 'value' in value;
}

function maskable(value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

/**
 * Masks values under secret-looking names anywhere in options: plain objects
 * (`{"Authorization": "…"}`), arrays of single-key objects and arrays of `{key, value}` pairs.
 */
export function maskTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskTree);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  const pair = isKeyValuePair(value);
  for (const [name, inner] of Object.entries(value)) {
    if (pair && name === 'key') out[name] = inner;
    else if (pair && name === 'value') out[name] = isSecretName(value.key) && maskable(inner) ? MASK : maskTree(inner);
    else out[name] = isSecretName(name) && maskable(inner) ? MASK : maskTree(inner);
  }
  return out;
}

/** Every name -> value under which a value is stored, for placeholders that moved position. */
function collectNamed(value: unknown, into: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value)) for (const item of value) collectNamed(item, into);
  else if (isKeyValuePair(value)) into.set(value.key.toLowerCase(), value.value);
  else if (isRecord(value)) {
    for (const [name, inner] of Object.entries(value)) {
      if (maskable(inner)) into.set(name.toLowerCase(), inner);
      else collectNamed(inner, into);
    }
  }
  return into;
}

/**
 * Replaces each placeholder in `incoming` with the stored value at the same place (same position
 * and name), else the stored value with the same name. Throws MaskWithoutValue when there is none.
 */
export function restoreTree(incoming: unknown, stored: unknown, path: string): unknown {
  const named = collectNamed(stored, new Map());
  const walk = (value: unknown, here: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => walk(item, Array.isArray(here) ? here[i] : undefined, `${at}.${i}`));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    if (isKeyValuePair(value) && value.value === MASK) {
      const samePlace = isKeyValuePair(here) && here.key.toLowerCase() === value.key.toLowerCase();
      const kept = samePlace ? here.value : named.get(value.key.toLowerCase());
      if (kept === undefined || kept === MASK) throw new MaskWithoutValue(`${at}.value`);
      for (const [name, inner] of Object.entries(value)) out[name] = name === 'value' ? kept : inner;
      return out;
    }
    for (const [name, inner] of Object.entries(value)) {
      const storedHere = isRecord(here) ? here[name] : undefined;
      if (inner === MASK) {
        const kept = storedHere !== undefined ? storedHere : named.get(name.toLowerCase());
        if (kept === undefined || kept === MASK || kept === null) throw new MaskWithoutValue(`${at}.${name}`);
        out[name] = kept;
      } else {
        out[name] = walk(inner, storedHere, `${at}.${name}`);
      }
    }
    return out;
  };
  return walk(incoming, stored, path);
}

// Keyword/value credentials: URL query parameters (`?password=`), libpq (`password=… host=…`), ADO (`Pwd=…;`).
const KEYWORD_SECRET = /(^|[?&;\s])((?:ssl)?password|passwd|pwd|pass|secret|token|access_token|api_?key)(\s*=\s*)('(?:[^'\\]|\\.)*'|[^&;\s#]*)/gi;

type Range = readonly [start: number, end: number];

/**
 * Where the secrets of a connection string are: the password of the URL's user info
 * (`scheme://user:PASSWORD@host`) and credential keywords. When the user info cannot be told
 * apart from the rest with certainty, the range errs towards hiding more.
 */
function secretRanges(value: string): Range[] {
  const ranges: Range[] = [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value);
  let authorityEnd = 0;
  if (scheme) {
    const start = scheme[0].length;
    const stop = value.slice(start).search(/[/?#]/);
    const authority = stop === -1 ? value.slice(start) : value.slice(start, start + stop);
    // An unencoded '/', '?' or '#' in the password hides the '@' beyond the first of them.
    const at = authority.includes('@') ? start + authority.lastIndexOf('@') : value.indexOf('@', start);
    if (at !== -1) {
      const colon = value.indexOf(':', start);
      if (colon !== -1 && colon < at && at > colon + 1) ranges.push([colon + 1, at]);
      authorityEnd = at;
    }
  }
  for (const match of value.matchAll(KEYWORD_SECRET)) {
    const secret = match[4] ?? '';
    if (secret === '' || match.index === undefined) continue;
    const begin = match.index + (match[1] ?? '').length + (match[2] ?? '').length + (match[3] ?? '').length;
    if (begin < authorityEnd) continue;
    ranges.push([begin, begin + secret.length]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

export function maskConnectionString(value: string): string {
  let out = value;
  for (const [start, end] of secretRanges(value).reverse()) out = out.slice(0, start) + MASK + out.slice(end);
  return out;
}

/**
 * Puts the stored secrets back where the client sent placeholders, matching them by order
 * (first secret for the first placeholder, …).
 */
export function restoreConnectionString(incoming: string, stored: string | null, path: string): string {
  if (!incoming.includes(MASK)) return incoming;
  if (stored !== null && incoming === maskConnectionString(stored)) return stored;
  const storedSecrets = stored === null ? [] : secretRanges(stored).map(([s, e]) => stored.slice(s, e));
  const ranges = secretRanges(incoming);
  let out = incoming;
  for (let i = ranges.length - 1; i >= 0; i -= 1) {
    const [start, end] = ranges[i]!;
    if (incoming.slice(start, end) !== MASK) continue;
    const kept = storedSecrets[i];
    if (kept === undefined) throw new MaskWithoutValue(path);
    out = out.slice(0, start) + kept + out.slice(end);
  }
  if (out.includes(MASK)) throw new MaskWithoutValue(path);
  return out;
}

/** A whole secret as a response shows it: the placeholder, or what says there is none. */
export function maskValue(value: string | null | undefined): string | null {
  return value === undefined || value === null ? null : value === '' ? '' : MASK;
}

/** Masks the listed keys of an object (e.g. `authentication`'s token and pass). */
function maskKeys(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of keys) if (maskable(out[key])) out[key] = MASK;
  return out;
}

/**
 * A connection's secret field as a response (or a log line) shows it, by CONNECTION_SECRETS.
 * A JSON field that arrives as text is masked inside and stays text; text that is not JSON is
 * hidden whole, as nothing in it can be told apart.
 */
export function maskConnectionField(field: ConnectionSecretField, value: unknown): unknown {
  const how: (typeof CONNECTION_SECRETS)[ConnectionSecretField] = CONNECTION_SECRETS[field];
  if (value === null || value === undefined) return null;
  if (how === 'whole') return typeof value === 'string' ? maskValue(value) : MASK;
  if (how === 'credentials') return typeof value === 'string' ? maskConnectionString(value) : MASK;
  const mask = (tree: unknown) => (how === 'by-name' ? maskTree(tree) : maskKeys(tree, how));
  if (typeof value !== 'string') return mask(value);
  const tree = parsed(value);
  return tree === value ? maskValue(value) : JSON.stringify(mask(tree));
}

/** JSON columns may reach the source layer as text. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Every value under a secret name inside a tree, as text. */
function valuesByName(value: unknown, into: string[]): void {
  if (Array.isArray(value)) for (const item of value) valuesByName(item, into);
  else if (isKeyValuePair(value)) {
    if (isSecretName(value.key) && maskable(value.value)) into.push(String(value.value));
    else valuesByName(value.value, into);
  } else if (isRecord(value)) {
    for (const [name, inner] of Object.entries(value)) {
      if (isSecretName(name) && maskable(inner)) into.push(String(inner));
      else valuesByName(inner, into);
    }
  }
}

/** The secret values of a connection (decrypted), by CONNECTION_SECRETS: what must not appear in a message. */
export function connectionSecretValues(conn: Partial<Record<ConnectionSecretField, unknown>>): string[] {
  const out: string[] = [];
  for (const field of CONNECTION_SECRET_FIELDS) {
    const how: (typeof CONNECTION_SECRETS)[ConnectionSecretField] = CONNECTION_SECRETS[field];
    const value = conn[field];
    if (value === null || value === undefined) continue;
    if (how === 'whole') out.push(String(value));
    else if (how === 'credentials' && typeof value === 'string') {
      out.push(value, ...secretRanges(value).map(([start, end]) => value.slice(start, end)));
    } else if (how === 'by-name') valuesByName(parsed(value), out);
    else if (Array.isArray(how)) {
      const object = parsed(value);
      if (isRecord(object)) for (const key of how) if (maskable(object[key])) out.push(String(object[key]));
    }
  }
  return out;
}

/**
 * Cuts secrets out of a message (drivers sometimes echo the connection string or the password
 * in their errors): the password of any URL's user info, and each of `secrets`.
 */
export function scrubMessage(message: string, secrets: readonly string[]): string {
  let out = message.replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, `$1${MASK}@`);
  for (const secret of secrets) {
    // Very short values would mask ordinary words; they are not worth hiding at that cost.
    if (secret.length >= 4) out = out.split(secret).join(MASK);
  }
  return out;
}

/**
 * A webhook URL as a response shows it: its origin, then the placeholder. Slack's and most
 * webhooks' URLs carry their credential in the path or the query, so neither is shown.
 */
export function maskWebhookUrl(url: string): string {
  try {
    return `${new URL(url).origin}/${MASK}`;
  } catch {
    return MASK;
  }
}

/** The webhook URL to keep from a body: sent back as answered (or as the placeholder), the stored one stays. */
export function restoreWebhookUrl(incoming: string, stored: string | null, path: string): string {
  if (!incoming.includes(MASK)) return incoming;
  if (stored !== null && (incoming === MASK || incoming === maskWebhookUrl(stored))) return stored;
  throw new MaskWithoutValue(path);
}

/** Query parameters under secret names masked, for URLs in log lines. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of [...params.keys()]) if (isSecretName(name)) params.set(name, MASK);
  return `${url.slice(0, at)}?${params.toString()}`;
}

/**
 * A log object with secrets masked at any depth: a connection's secret fields as a response shows
 * them, every other value under a secret name whole. Only plain objects and arrays are walked:
 * errors and other instances keep their own serializers.
 */
export function redactLogObject<T>(value: T): T {
  return walkLog(value, 0) as T;
}

function isConnectionSecretField(name: string): name is ConnectionSecretField {
  return Object.hasOwn(CONNECTION_SECRETS, name);
}

function walkLog(value: unknown, depth: number): unknown {
  if (depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => walkLog(item, depth + 1));
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (inner === null || inner === undefined || typeof inner === 'boolean') out[name] = inner;
    else if (isConnectionSecretField(name)) out[name] = walkLog(maskConnectionField(name, inner), depth + 1);
    else out[name] = isSecretName(name) ? MASK : walkLog(inner, depth + 1);
  }
  return out;
}
