// Preloaded with `node --import` by bench/idle-rss.ts: the packages the server loads only on
// first use, imported at start, to show what deferring them saves.
await Promise.all(
  ['pg', 'pg-cursor', 'mysql2', 'mongodb', 'acorn', 'ioredis', 'undici', 'jose', '@fastify/swagger-ui', '@fastify/static', 'csv-stringify'].map((name) => import(name)),
);
