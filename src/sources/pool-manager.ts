import { createHash } from 'node:crypto';
import { stableStringify } from '../runtime/stable-json.js';
import type { SourceConnection } from './types.js';

export interface PoolHandle<P> {
  pool: P;
  /** Returns the pool: a no-op for stored connections, closes the pool of an unsaved one. */
  release(): Promise<void>;
}

interface Entry {
  connectionId: string;
  fingerprint: string;
  pool: unknown;
  close(): Promise<void>;
}

/**
 * Owns every driver pool. A pool is created on first use of a connection, keyed by the connection
 * id and a fingerprint of its version and settings, so an edited connection never reuses the old
 * pool even if nobody called `invalidate()`. `invalidate()` (connection updated or deleted) and
 * `closeAll()` (shutdown) close pools.
 */
export class PoolManager {
  private readonly entries = new Map<string, Entry>();
  private readonly closing = new Set<Promise<void>>();

  acquire<P>(conn: SourceConnection, family: string, create: () => P, close: (pool: P) => Promise<void>): PoolHandle<P> {
    if (conn.id === null || conn.id === undefined) {
      // Unsaved connection (a test before saving): a pool for this one call.
      const pool = create();
      return { pool, release: () => close(pool) };
    }
    const connectionId = String(conn.id);
    const key = `${family}:${connectionId}`;
    const fingerprint = connectionFingerprint(conn);
    const existing = this.entries.get(key);
    if (existing && existing.fingerprint === fingerprint) {
      return { pool: existing.pool as P, release: async () => undefined };
    }
    if (existing) this.retire(key, existing);
    const pool = create();
    this.entries.set(key, { connectionId, fingerprint, pool, close: () => close(pool) });
    return { pool, release: async () => undefined };
  }

  /** Closes every pool of this connection (all families). */
  async invalidate(connectionId: number | string): Promise<void> {
    const id = String(connectionId);
    for (const [key, entry] of this.entries) if (entry.connectionId === id) this.retire(key, entry);
    await this.settle();
  }

  async closeAll(): Promise<void> {
    for (const [key, entry] of this.entries) this.retire(key, entry);
    await this.settle();
  }

  has(connectionId: number | string): boolean {
    const id = String(connectionId);
    for (const entry of this.entries.values()) if (entry.connectionId === id) return true;
    return false;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Runs holding and waiting for a pooled connection, per pool that admits runs through a gate. */
  stats(): { connectionId: string; family: string; inUse: number; waiting: number }[] {
    const out: { connectionId: string; family: string; inUse: number; waiting: number }[] = [];
    for (const [key, entry] of this.entries) {
      const gate = (entry.pool as { gate?: { inUse: number; waiting: number } } | null)?.gate;
      if (gate) out.push({ connectionId: entry.connectionId, family: key.slice(0, key.indexOf(':')), inUse: gate.inUse, waiting: gate.waiting });
    }
    return out;
  }

  private retire(key: string, entry: Entry): void {
    this.entries.delete(key);
    const closing = entry
      .close()
      .catch(() => undefined)
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  private async settle(): Promise<void> {
    await Promise.all([...this.closing]);
  }
}

/** Hash of everything that changes how to connect (secrets included; the hash never leaves memory). */
function connectionFingerprint(conn: SourceConnection): string {
  const updatedAt = conn.updatedAt instanceof Date ? conn.updatedAt.toISOString() : conn.updatedAt;
  return createHash('sha256')
    .update(stableStringify({ ...conn, updatedAt }))
    .digest('hex');
}
