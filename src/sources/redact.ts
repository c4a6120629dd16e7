import type { SourceConnection } from './types.js';

const MASK = '********';

/**
 * Removes a connection's secrets from a message before it leaves the source layer: drivers
 * sometimes echo the connection string or the password back in their errors.
 */
export function redactSecrets(message: string, conn: SourceConnection | undefined): string {
  let out = message.replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, `$1${MASK}@`);
  if (!conn) return out;
  const secrets = [conn.password, conn.connectionString, conn.authentication?.token, conn.authentication?.pass, conn.sslKey];
  for (const secret of secrets) {
    // Very short values would mask ordinary words; they are not worth hiding at that cost.
    if (typeof secret === 'string' && secret.length >= 4) out = out.split(secret).join(MASK);
  }
  return out;
}
