/** Query parameters of a page URL, read and set without rewriting the rest of the URL. */

/** Sets one query parameter, leaving the rest of the query string exactly as written. */
export function setQueryParam(url: string, name: string, value: string): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const pairs = queryAt === -1 ? [] : withoutHash.slice(queryAt + 1).split('&').filter(Boolean);
  const encoded = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  let replaced = false;
  const out = pairs.map((pair) => {
    const key = pair.split('=')[0] ?? '';
    if (safeDecode(key) !== name) return pair;
    replaced = true;
    return encoded;
  });
  if (!replaced) out.push(encoded);
  return `${base}?${out.join('&')}`;
}

export function getQueryParam(url: string, name: string): string | undefined {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return undefined;
  for (const pair of url.slice(queryAt + 1).replace(/#.*$/, '').split('&')) {
    const eq = pair.indexOf('=');
    if (safeDecode(eq === -1 ? pair : pair.slice(0, eq)) === name) return eq === -1 ? '' : safeDecode(pair.slice(eq + 1));
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
