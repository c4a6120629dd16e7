import type { SourceCapabilities } from './types.js';

/**
 * What each source can do, known without loading it: the registry advertises these (and the
 * data path picks streaming or pushdown by them) before a source's driver is first needed.
 * Each source class takes its own entry, so the two cannot disagree.
 */
export const SOURCE_CAPABILITIES = {
  postgres: { streaming: true, pushdown: 'postgres', schema: true },
  mysql: { streaming: true, pushdown: 'mysql', schema: true },
  mongodb: { streaming: true, pushdown: false, schema: true },
  api: { streaming: false, pushdown: false, schema: false },
  realtimedb: { streaming: false, pushdown: false, schema: false },
  firestore: { streaming: false, pushdown: false, schema: true },
  googleAnalytics: { streaming: false, pushdown: false, schema: true },
  customerio: { streaming: false, pushdown: false, schema: false },
} as const satisfies Record<string, SourceCapabilities>;
