import { connectionSecretValues, scrubMessage } from '../redaction/index.js';
import type { SourceConnection } from './types.js';

/**
 * Removes a connection's secrets from a message before it leaves the source layer: drivers
 * sometimes echo the connection string or the password back in their errors. Which fields are
 * secret is decided once, in src/redaction.
 */
export function redactSecrets(message: string, conn: SourceConnection | undefined, extra: readonly string[] = []): string {
  return scrubMessage(message, conn ? [...connectionSecretValues(conn), ...extra] : extra);
}
