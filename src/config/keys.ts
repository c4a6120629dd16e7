const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** Why `raw` cannot be a 32-byte key (encryption key, share secret), or undefined when it can. */
export function hexKeyProblem(raw: string): string | undefined {
  if (!HEX_KEY.test(raw)) return 'must be 64 hexadecimal characters (32 bytes)';
  if (!looksRandom(Buffer.from(raw, 'hex'))) {
    return 'looks hand-made (repeated or sequential bytes); use 32 random bytes, e.g. `openssl rand -hex 32`';
  }
  return undefined;
}

/** Why a comma-separated list of keys is refused: the first of its keys that is. */
export function hexKeyListProblem(raw: string): string | undefined {
  return raw
    .split(',')
    .map((key) => hexKeyProblem(key.trim()))
    .find((problem) => problem !== undefined);
}

/**
 * Refuses keys such as `000…0`, `aaa…a`, `0123…ef` repeated or `00 01 02 … 1f`. 32 random bytes
 * almost always hold about 30 distinct values and about 29 distinct steps from one byte to the
 * next; below 16 of either is far outside chance (well under 1 in 10^15) and means a human typed it.
 */
export function looksRandom(key: Buffer): boolean {
  const values = new Set(key);
  const steps = new Set<number>();
  for (let i = 1; i < key.length; i++) steps.add((key[i]! - key[i - 1]! + 256) % 256);
  return values.size >= 16 && steps.size >= 16;
}
