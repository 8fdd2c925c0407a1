import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { redactUrl } from '../config.js';
import type { CommandContext } from './command-context.js';
import { formatKeyValues } from './format.js';
import type { MigrationReport } from './store-migration.js';

/**
 * `bourse migrate-store --from <data dir> --to postgres://…` (docs/operating.md "Moving a SQLite
 * deployment to PostgreSQL"): the one command that works on stores rather than through the
 * operator API, so it needs no server, and its server must be stopped.
 */
export function addMigrateStoreCommand(program: Command, ctx: CommandContext, asJson: () => boolean): void {
  program
    .command('migrate-store')
    .description("copy a SQLite deployment (its server stopped) into an empty PostgreSQL database, and check the copy's state hash")
    .requiredOption('--from <dataDir>', "the SQLite server's data directory (its BOURSE_DATA), holding bourse.db")
    .requiredOption('--to <url>', 'postgres://user:password@host:port/database of an empty database', parsePostgresUrl)
    .action(async (opts: { from: string; to: string }) => {
      const dataDir = path.resolve(opts.from);
      // Imported on demand, as `serve` is: the other commands should not load the stores and the core.
      const { migrateStore } = await import('./store-migration.js');
      const secretKeyBase64 = ctx.io.env.BOURSE_SECRET_KEY;
      const report = await migrateStore({
        dataDir,
        targetUrl: opts.to,
        secretKeyBase64,
        progress: (line) => ctx.io.stderr.write(`migrate-store: ${line}\n`),
      });
      ctx.io.stdout.write(asJson() ? `${JSON.stringify(report)}\n` : formatMigration(report, dataDir, opts.to, secretKeyBase64?.trim() ? 'env' : 'file'));
    });
}

function parsePostgresUrl(text: string): string {
  if (!/^postgres(ql)?:\/\//i.test(text) || !URL.canParse(text)) throw new InvalidArgumentError('expected a postgres:// or postgresql:// URL');
  return text;
}

/** What was copied, then what the operator does next (docs/operating.md). */
function formatMigration(report: MigrationReport, dataDir: string, url: string, keyFrom: 'env' | 'file'): string {
  const fileOr = (name: string, variable: string, read: string): { copy?: string; set: string } => {
    const file = path.join(dataDir, name);
    return existsSync(file) ? { copy: name, set: `${variable}="$(${read} ${shellWord(file)})"` } : { set: `${variable} as the SQLite server had it` };
  };
  const secrets = [
    keyFrom === 'env' ? { set: 'the same BOURSE_SECRET_KEY' } : fileOr('secret.key', 'BOURSE_SECRET_KEY', 'base64 -w0'),
    fileOr('webhook-key.pem', 'BOURSE_WEBHOOK_KEY', 'cat'),
    fileOr('admin-token', 'BOURSE_ADMIN_TOKEN', 'cat'),
  ];
  const files = secrets.flatMap((secret) => (secret.copy === undefined ? [] : [secret.copy]));
  return [
    ...formatKeyValues([
      ['commands copied', String(report.commands)],
      ['snapshot seq', String(report.snapshotSeq)],
      ['state hash', report.stateHash],
      ['documents copied', String(report.documents)],
    ]),
    'The state hash is the same on the SQLite store, the copied snapshot and a replay of the PostgreSQL journal.',
    '',
    'Next:',
    '1. Keep the SQLite server stopped: the database is the deployment\'s store from now on.',
    `2. Give every node this deployment's secrets: ${files.length === 0 ? '' : `copy ${files.join(', ')} from ${dataDir} into its BOURSE_DATA, or `}set`,
    `   ${secrets.map((secret) => secret.set).join(', ')}.`,
    `3. Start the nodes with BOURSE_DB=${redactUrl(url)} (docs/deployment.md).`,
    `4. npx bourse verify --replay on a node prints: journal replay ok (state hash ${report.stateHash})`,
    '',
  ].join('\n');
}

/** A path as one shell word: quoted when it holds anything a shell would split or expand. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
