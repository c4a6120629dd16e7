/**
 * How secret values are hidden in responses and recovered when a client writes the placeholder
 * back. Pure functions over decrypted values; nothing here touches the store or the key.
 */
export const MASK = '********';

/** A value the caller sent as the placeholder although nothing is stored there to keep. */
export class MaskWithoutValue extends Error {
  constructor(readonly path: string) {
    super(`${path} is the placeholder "${MASK}" but no stored value exists there`);
  }
}

const SECRET_NAME = /authorization|cookie|token|key|secret|passw|^pass$|^pwd$|credential|signature/i;

/** Header or option names whose values are credentials. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

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

/** True when the placeholder occurs anywhere in the value. */
export function containsMask(value: unknown): boolean {
  if (value === MASK) return true;
  if (Array.isArray(value)) return value.some(containsMask);
  if (isRecord(value)) return Object.values(value).some(containsMask);
  return false;
}

// Keyword/value credentials: URL query parameters (`?password=`), libpq (`password=… host=…`), ADO (`Pwd=…;`).
const KEYWORD_SECRET = /(^|[?&;\s])((?:ssl)?password|passwd|pwd|pass|secret|token|access_token|api_?key)(\s*=\s*)('(?:[^'\\]|\\.)*'|[^&;\s#]*)/gi;

type Range = readonly [start: number, end: number];

/**
 * Where the secrets of a connection string are: the password of the URL's user info
 * (`scheme://user:PASSWORD@host`) and credential keywords. When the user info cannot be told
 * apart from the rest with certainty, the range errs towards hiding more.
 */
export function secretRanges(value: string): Range[] {
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
