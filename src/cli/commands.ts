import { Command, InvalidArgumentError, Option } from 'commander';
import { adminPath, type HttpMethod } from './client.js';
import type { CommandContext } from './command-context.js';
import { configPatch } from './config-values.js';
import { usageError } from './errors.js';
import { formatCluster, formatJsonLine, formatReadable, formatUsers, formatVerify, isLedgerOk } from './format.js';
import { addMigrateStoreCommand } from './migrate-store.js';
import { addWebhookCommands } from './webhooks.js';

type Body = Record<string, unknown>;
type Readable = (answer: unknown) => string;

/** The `bourse` command tree; each command is one operator API request (`serve` and `migrate-store` excepted). */
export function buildProgram(ctx: CommandContext): Command {
  // Output and exit settings first: subcommands copy them when they are created.
  const program = new Command('bourse')
    .description('Operate a Bourse server through its operator API (BOURSE_URL, BOURSE_ADMIN_TOKEN or <BOURSE_DATA>/admin-token).')
    .option('--json', "print the server's JSON answer as is, on one line")
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    })
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');

  const asJson = (): boolean => program.opts<{ json?: boolean }>().json === true;
  const request = async (method: HttpMethod, path: string, body?: Body, readable: Readable = formatReadable) => {
    const answer = await (await ctx.client()).send(method, path, body);
    ctx.io.stdout.write(asJson() ? formatJsonLine(answer.raw) : readable(answer.body));
    return answer.body;
  };

  program
    .command('serve')
    .description('start the server in this process (configured by the environment, see docs/operating.md)')
    .action(async () => {
      await ctx.startServer();
    });

  const user = program.command('user').description('users');
  user
    .command('create')
    .description('create a user with its main account')
    .option('--email <email>', 'contact e-mail')
    .addOption(new Option('--type <type>', 'user type').choices(['user', 'merchant']))
    .action(async (opts: { email?: string; type?: string }) => {
      await request('POST', adminPath('users'), defined({ email: opts.email, type: opts.type }));
    });
  user
    .command('list')
    .description('list the users with their accounts, by userId')
    .option('--from <userId>', 'start at this userId (the next page: the last one shown + 1)', parseCount)
    .option('--limit <n>', 'at most this many (default 100, at most 1000)', parseCount)
    .action(async (opts: { from?: number; limit?: number }) => {
      await request('GET', withQuery(adminPath('users'), { fromUserId: opts.from, limit: opts.limit }), undefined, formatUsers);
    });
  user
    .command('balances <userId>')
    .description("show a user's non-zero balances, account by account")
    .action(async (userId: string) => {
      await request('GET', adminPath('users', userId, 'balances'));
    });

  program
    .command('subaccount')
    .description('sub-accounts')
    .command('create <userId>')
    .description("create a sub-account under the user's next free account index")
    .option('--name <name>', 'sub-account name (default sub<index>)')
    .action(async (userId: string, opts: { name?: string }) => {
      await request('POST', adminPath('users', userId, 'sub-accounts'), defined({ name: opts.name }));
    });

  const key = program.command('key').description('API keys');
  key
    .command('create <userId>')
    .description('create an API key; its secret is shown only in this answer')
    .option('--account-index <n>', 'account the key acts for (default 0, the main account)', parseCount)
    .option('--permissions <list>', 'comma-separated permissions, e.g. TRADE,USER_DATA (default all)')
    .option('--ip <list>', 'comma-separated IP addresses or CIDR blocks allowed (default any)')
    .option('--label <label>', 'label')
    .action(async (userId: string, opts: { accountIndex?: number; permissions?: string; ip?: string; label?: string }) => {
      const body = defined({
        accountIndex: opts.accountIndex,
        permissions: opts.permissions === undefined ? undefined : splitList(opts.permissions).map(upper),
        ipWhitelist: opts.ip === undefined ? undefined : splitList(opts.ip),
        label: opts.label,
      });
      await request('POST', adminPath('users', userId, 'api-keys'), body, (answer) =>
        `${formatReadable(answer)}(store the secretKey now: it is not shown again)\n`,
      );
    });
  key
    .command('list <userId>')
    .description("list a user's API keys")
    .action(async (userId: string) => {
      await request('GET', adminPath('users', userId, 'api-keys'));
    });
  key
    .command('revoke <apiKey>')
    .description('revoke an API key')
    .action(async (apiKey: string) => {
      await request('DELETE', adminPath('api-keys', apiKey));
    });

  program
    .command('deposit <accountId> <asset> <amount>')
    .description('credit a deposit to an account (amount as a decimal string)')
    .option('--tx-id <txId>', 'chain or bank transaction id')
    .action(async (accountId: string, asset: string, amount: string, opts: { txId?: string }) => {
      await request('POST', adminPath('deposits'), defined({ accountId, asset: upper(asset), amount, txId: opts.txId }));
    });

  const withdrawal = program.command('withdrawal').description('withdrawals and their review');
  withdrawal
    .command('list')
    .description('list withdrawals, newest first, with the ids approve and reject take')
    .option('--status <status>', 'only this status: PENDING, SENT or REJECTED', parseWithdrawalStatus)
    .option('--limit <n>', 'at most this many (default 100, at most 1000)', parseCount)
    .action(async (opts: { status?: string; limit?: number }) => {
      await request('GET', withQuery(adminPath('withdrawals'), { status: opts.status, limit: opts.limit }));
    });
  withdrawal
    .command('approve <id>')
    .description('approve a pending withdrawal')
    .option('--tx-id <txId>', 'chain or bank transaction id')
    .action(async (id: string, opts: { txId?: string }) => {
      await request('POST', adminPath('withdrawals', id, 'approve'), defined({ txId: opts.txId }));
    });
  withdrawal
    .command('reject <id>')
    .description('reject a pending withdrawal and release its funds')
    .option('--reason <reason>', 'reason shown to the user')
    .action(async (id: string, opts: { reason?: string }) => {
      await request('POST', adminPath('withdrawals', id, 'reject'), defined({ reason: opts.reason }));
    });

  const asset = program.command('asset').description('assets');
  asset
    .command('list')
    .description('list the assets')
    .action(async () => {
      await request('GET', adminPath('assets'));
    });
  asset
    .command('add <asset>')
    .description('add an asset')
    .requiredOption('--precision <n>', 'ledger decimals, 0 to 18', parseCount)
    .addOption(new Option('--kind <kind>', 'asset kind (default crypto)').choices(['crypto', 'fiat']))
    .option('--full-name <name>', 'full name')
    .option('--chains <list>', 'comma-separated chains, e.g. TRC20,ERC20')
    .option('--withdraw-fee <amount>', 'withdrawal fee')
    .option('--min-withdraw <amount>', 'minimum withdrawal')
    .action(
      async (
        asset: string,
        opts: { precision: number; kind?: string; fullName?: string; chains?: string; withdrawFee?: string; minWithdraw?: string },
      ) => {
        const body = defined({
          asset: upper(asset),
          precision: opts.precision,
          kind: opts.kind,
          fullName: opts.fullName,
          chains: opts.chains === undefined ? undefined : splitList(opts.chains).map(upper),
          withdrawFee: opts.withdrawFee,
          minWithdraw: opts.minWithdraw,
        });
        await request('POST', adminPath('assets'), body);
      },
    );

  const symbol = program.command('symbol').description('symbols');
  symbol
    .command('list')
    .description('list the symbols with their status and filters')
    .action(async () => {
      await request('GET', adminPath('symbols'));
    });
  symbol
    .command('add <symbol>')
    .description('list a symbol (it starts TRADING)')
    .requiredOption('--base <asset>', 'base asset')
    .requiredOption('--quote <asset>', 'quote asset')
    .requiredOption('--tick-size <price>', 'price step')
    .requiredOption('--step-size <qty>', 'quantity step')
    .option('--min-qty <qty>', 'minimum quantity (default stepSize)')
    .option('--min-notional <amount>', 'minimum price × quantity')
    .option('--min-price <price>', 'minimum price (default tickSize)')
    .option('--max-price <price>', 'maximum price')
    .option('--max-qty <qty>', 'maximum quantity')
    .action(async (name: string, opts: SymbolOptions) => {
      const body = defined({
        symbol: upper(name),
        baseAsset: upper(opts.base),
        quoteAsset: upper(opts.quote),
        tickSize: opts.tickSize,
        stepSize: opts.stepSize,
        minQty: opts.minQty,
        minNotional: opts.minNotional,
        minPrice: opts.minPrice,
        maxPrice: opts.maxPrice,
        maxQty: opts.maxQty,
      });
      await request('POST', adminPath('symbols'), body);
    });
  const statuses = [
    ['halt', 'HALT', 'pause trading (the book is kept, cancels allowed)'],
    ['resume', 'TRADING', 'resume trading'],
    ['break', 'BREAK', 'mark the symbol not open for trading'],
  ] as const;
  for (const [verb, status, description] of statuses) {
    symbol
      .command(`${verb} <symbol>`)
      .description(description)
      .action(async (name: string) => {
        await request('PATCH', adminPath('symbols', upper(name)), { status });
      });
  }

  program
    .command('fees')
    .description('fee rates')
    .command('set <accountId>')
    .description("set an account's fee rates")
    .option('--maker <rate>', 'maker fee rate, e.g. 0.0008')
    .option('--taker <rate>', 'taker fee rate, e.g. 0.001')
    .action(async (accountId: string, opts: { maker?: string; taker?: string }) => {
      if (opts.maker === undefined && opts.taker === undefined) throw usageError('fees set needs --maker, --taker or both');
      await request('PATCH', adminPath('accounts', accountId), defined({ makerFeeRate: opts.maker, takerFeeRate: opts.taker }));
    });

  const ban = program.command('ban').description('IP bans of the rate limiter');
  ban
    .command('list')
    .description('list banned IP addresses')
    .action(async () => {
      await request('GET', adminPath('bans'));
    });
  ban
    .command('lift <ip>')
    .description("lift an IP's ban and reset its ban count")
    .action(async (ip: string) => {
      await request('DELETE', adminPath('bans', ip));
    });

  addConfigCommands(program.command('config').description('trading settings'), adminPath('trading', 'config'), request, ctx);
  addConfigCommands(
    program.command('payments').description('payments (area B)').command('config').description('payments settings'),
    adminPath('payments', 'config'),
    request,
    ctx,
  );

  addWebhookCommands(program, ctx, asJson);

  program
    .command('verify')
    .description('check the ledger; exit 1 when it does not balance')
    .option('--replay', 'also replay the whole journal and compare state hashes (slower)')
    .action(async (opts: { replay?: boolean }) => {
      const answer = await request('GET', `${adminPath('verify')}${opts.replay === true ? '?replay=1' : ''}`, undefined, formatVerify);
      if (!isLedgerOk(answer)) ctx.setExitCode(1);
    });

  program
    .command('cluster')
    .description('list the nodes of the deployment seen in the last minute: role, term, seq, lag (docs/deployment.md)')
    .action(async () => {
      await request('GET', adminPath('cluster'), undefined, formatCluster);
    });

  addMigrateStoreCommand(program, ctx, asJson);

  return program;
}

interface SymbolOptions {
  base: string;
  quote: string;
  tickSize: string;
  stepSize: string;
  minQty?: string;
  minNotional?: string;
  minPrice?: string;
  maxPrice?: string;
  maxQty?: string;
}

type Request = (method: HttpMethod, path: string, body?: Body, readable?: Readable) => Promise<unknown>;

function addConfigCommands(parent: Command, path: string, request: Request, ctx: CommandContext): void {
  parent
    .command('get')
    .description('show the settings')
    .action(async () => {
      await request('GET', path);
    });
  parent
    .command('set <key=value...>')
    .description('change settings, each as key=value or key value; a value takes the JSON type of the setting it replaces (a switch takes only true or false)')
    .action(async (assignments: string[]) => {
      // Read without printing: only the PATCH answer is this command's output.
      const current = await (await ctx.client()).send('GET', path);
      await request('PATCH', path, configPatch(current.body, assignments));
    });
}

/** The fields that were given: an option left out is left to the server's default. */
function defined(fields: Body): Body {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** `path?name=value&…` with the options that were given; `path` alone when none was. */
function withQuery(path: string, fields: Readonly<Record<string, string | number | undefined>>): string {
  const query = new URLSearchParams(Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]))).toString();
  return query === '' ? path : `${path}?${query}`;
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Asset, symbol and permission names are upper case on the wire (docs/spot-api.md "Methods and parameters"). */
function upper(name: string): string {
  return name.toUpperCase();
}

function parseWithdrawalStatus(text: string): string {
  const status = text.toUpperCase();
  if (!['PENDING', 'SENT', 'REJECTED'].includes(status)) throw new InvalidArgumentError('expected PENDING, SENT or REJECTED');
  return status;
}

function parseCount(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text)) throw new InvalidArgumentError('expected a whole number');
  return Number(text);
}
