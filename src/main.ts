#!/usr/bin/env node
// First: holds young-generation growth during start-up (before the imports below allocate).
import { bootFinished } from './runtime/boot-memory.js';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig, looksRandom, type Config } from './config/index.js';
import { createContainer } from './container.js';
import { AppError } from './errors/index.js';
import { isRole, type Role } from './platform/authorization.js';
import { metricsExposureWarning } from './platform/metrics.js';
import { createStore, migrateToLatest } from './store/index.js';
import { startServer } from './server.js';

function config(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`plotline: invalid configuration: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

function fail(err: unknown): never {
  const message = err instanceof AppError || err instanceof Error ? err.message : String(err);
  process.stderr.write(`plotline: ${message}\n`);
  process.exit(1);
}

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

function role(value: string): Role {
  if (!isRole(value)) throw new InvalidArgumentError('must be teamOwner, teamAdmin, projectAdmin, projectEditor or projectViewer');
  return value;
}

const program = new Command('plotline').description('Plotline dashboard data service').showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('run the HTTP service')
  .action(async () => {
    const cfg = config();
    const started = Date.now();
    const server = await startServer(cfg).catch(fail);
    bootFinished();
    const store = cfg.database.kind === 'sqlite' ? `SQLite at ${cfg.database.file}` : 'Postgres (DATABASE_URL)';
    const exposed = metricsExposureWarning(cfg);
    process.stdout.write(
      [
        '',
        `Plotline is listening on ${server.address} (ready in ${Date.now() - started} ms)`,
        `  editor:    ${server.address}/app/  (open it in a browser; on a new instance it starts with sign-up)`,
        `  data dir:  ${cfg.dataDir}`,
        `  store:     ${store}`,
        `  API docs:  ${server.address}/docs`,
        ...(exposed ? [`  WARNING:   ${exposed}`] : []),
        '  first token: sign up with',
        `    curl -s -X POST ${server.address}/user -H 'content-type: application/json' \\`,
        `      -d '{"name":"Ada","email":"ada@example.com","password":"a long password"}'`,
        '  or offline: plotline user create --email ada@example.com --name Ada, then plotline token create --team <id>',
        '',
      ].join('\n') + '\n',
    );
  });

program
  .command('worker')
  .description('run scheduled refreshes without serving HTTP (pair with PLOTLINE_SCHEDULER=off on API processes)')
  .action(async () => {
    const cfg = config();
    const container = await createContainer(cfg).catch(fail);
    for (const notice of cfg.notices) container.logger.warn(notice);
    await container.scheduler.start();
    container.deliveryScheduler.start();
    // The scheduler's timer does not hold the process open; a worker has nothing else that does.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const mode = cfg.redisUrl ? 'BullMQ queue on REDIS_URL' : 'in-process (claims in the store)';
    process.stdout.write(`Plotline worker running: ${mode}, concurrency ${cfg.refreshConcurrency}\n`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        container.logger.info({ signal }, 'worker shutting down');
        clearInterval(keepAlive);
        container.close().then(
          () => {
            process.stdout.write('Plotline worker stopped\n');
            process.exit(0);
          },
          () => process.exit(1),
        );
      });
    }
  });

program
  .command('migrate')
  .description('apply pending store migrations and exit')
  .action(async () => {
    const cfg = config();
    const store = createStore(cfg.database);
    try {
      const { applied } = await migrateToLatest(store);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'store is up to date\n');
    } catch (err) {
      fail(err);
    } finally {
      await store.close();
    }
  });

const user = program.command('user').description('manage users offline');
user
  .command('create')
  .description('create a user and their personal team (ignores PLOTLINE_SIGNUP)')
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .option('--password <password>', 'at least 8 characters (default: read PLOTLINE_PASSWORD)')
  .action(async (opts: { email: string; name: string; password?: string }) => {
    const password = opts.password ?? process.env['PLOTLINE_PASSWORD'];
    if (!password) fail(new Error('give --password or set PLOTLINE_PASSWORD'));
    const container = await createContainer(config());
    try {
      const created = await container.users.createUser({ email: opts.email, name: opts.name, password });
      const teams = await container.teams.listMine({ kind: 'user', userId: created.id, sessionId: 0 });
      process.stdout.write(`created user ${created.id} <${created.email}> with team ${teams[0]?.id} "${teams[0]?.name}"\n`);
    } catch (err) {
      fail(err);
    } finally {
      await container.close();
    }
  });

const token = program.command('token').description('mint bearer tokens offline');
token
  .command('create')
  .description('mint a team API key and print it once')
  .requiredOption('--team <id>', 'team id', positiveInt)
  .option('--name <name>', 'key name', 'cli')
  .option('--role <role>', 'role of the key', role, 'teamAdmin')
  .action(async (opts: { team: number; name: string; role: Role }) => {
    const container = await createContainer(config());
    try {
      const key = await container.apiKeys.mint(opts.team, null, { name: opts.name, role: opts.role });
      process.stderr.write(`API key ${key.id} "${key.name}" (${key.role}) for team ${opts.team}; it is shown only now:\n`);
      process.stdout.write(`${key.token}\n`);
    } catch (err) {
      fail(err);
    } finally {
      await container.close();
    }
  });

program
  .command('rotate-key')
  .description('re-encrypt every stored secret with the key in PLOTLINE_NEW_ENCRYPTION_KEY')
  .action(async () => {
    const raw = process.env['PLOTLINE_NEW_ENCRYPTION_KEY']?.trim() ?? '';
    if (!/^[0-9a-fA-F]{64}$/.test(raw)) fail(new Error('set PLOTLINE_NEW_ENCRYPTION_KEY to the new key: 64 hex chars (openssl rand -hex 32)'));
    const cfg = config();
    const newKey = Buffer.from(raw, 'hex');
    if (!looksRandom(newKey)) fail(new Error('PLOTLINE_NEW_ENCRYPTION_KEY looks hand-made (repeated or sequential bytes); use `openssl rand -hex 32`'));
    if (newKey.equals(cfg.shareSecret)) fail(new Error('PLOTLINE_NEW_ENCRYPTION_KEY must differ from PLOTLINE_SHARE_SECRET'));
    const container = await createContainer(cfg);
    try {
      const { reencrypted, keyId } = await container.connections.rotateEncryptionKey(newKey);
      const integrations = await container.integrations.rotateEncryptionKey(newKey);
      const subscriptions = await container.deliveries.rotateEncryptionKey(newKey);
      process.stdout.write(
        [
          `re-encrypted ${reencrypted + integrations + subscriptions} secret value(s) with key ${keyId}`,
          'now set PLOTLINE_ENCRYPTION_KEY to the new key' +
            (cfg.database.kind === 'sqlite' ? ` (or write it to ${cfg.dataDir}/encryption.key)` : '') +
            ', keep the old one in PLOTLINE_PREVIOUS_ENCRYPTION_KEYS until every instance has restarted, and restart',
        ].join('\n') + '\n',
      );
    } catch (err) {
      fail(err);
    } finally {
      await container.close();
    }
  });

await program.parseAsync(process.argv);
