import { SecretBox } from '../../crypto/secrets.js';
import type { Db } from '../../store/index.js';
import type { ConnectionsRepository } from './connections-repository.js';

const ENVELOPE_IN_TEXT = /(?<![\w.-])v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]*(?![\w.-])/g;

/**
 * Re-encrypts every envelope of the connections table and of data requests' `headers` / `body`
 * with `newKey`, in one transaction. The current box must be able to decrypt all of them (the
 * current key plus PLOTLINE_PREVIOUS_ENCRYPTION_KEYS). Envelopes already under the new key are
 * left alone, so a second run counts 0.
 */
export async function rotateEncryptionKey(deps: { db: Db; connections: ConnectionsRepository; secrets: SecretBox }, newKey: Buffer): Promise<{ reencrypted: number; keyId: string }> {
  const next = new SecretBox(newKey);
  const reencrypted = await deps.db.transaction().execute(async (trx) => {
    let count = 0;
    for (const cell of await deps.connections.secretCells(trx)) {
      let changed = 0;
      const value = cell.value.replace(ENVELOPE_IN_TEXT, (envelope) => {
        if (SecretBox.keyIdOf(envelope) === next.keyId) return envelope;
        let plaintext: string;
        try {
          plaintext = deps.secrets.decrypt(envelope);
        } catch (err) {
          throw new Error(`${cell.table} #${cell.id} ${cell.column}: ${err instanceof Error ? err.message : 'cannot be decrypted'}`);
        }
        changed += 1;
        return next.encrypt(plaintext);
      });
      if (changed > 0) {
        await deps.connections.writeCell({ ...cell, value }, trx);
        count += changed;
      }
    }
    return count;
  });
  return { reencrypted, keyId: next.keyId };
}
