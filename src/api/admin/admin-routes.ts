import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BourseError } from '../../core/errors.js';
import { PERMISSIONS, type AssetKind, type Command, type Permission, type SymbolStatus, type UserType } from '../../core/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import { DEFAULT_CORE_LIMITS, DEFAULT_RATE_LIMIT_SETTINGS, RATE_LIMIT_KEYS, tradingConfigView } from '../../exchange/trading-config.js';
import { defaultPaymentsConfig } from '../../payments/config.js';
import type { Authenticator } from '../auth/authenticate.js';
import { normalizePeerAddress, parseIpWhitelist } from '../auth/ip-whitelist.js';
import { generateApiCredential } from '../auth/keys.js';
import type { SecretBox } from '../auth/secret-box.js';
import { FORMATS } from '../params.js';
import { rawParts, sendError, sendJson } from '../spot/spot-routes.js';
import { AdminBody, pathId } from './admin-body.js';
import { operatorPath, type OperatorEndpoint, type OperatorParamDoc } from './operator-endpoint.js';
import { arrayOf } from '../response-schema.js';
import * as S from './schemas.js';

/** What the operator endpoints' handlers work on. */
export interface OperatorDeps {
  exchange: Exchange;
  auth: Authenticator;
  secretBox: SecretBox;
  /** docs/webhooks.md "Verifying the signature", for the webhook debugger; "" in apps built without the key. */
  webhookPublicKey?: string;
}

const CORE_COUNT_KEYS = ['maxOpenOrdersPerSymbol', 'maxOpenOrdersPerAccount'] as const;
const CORE_RATE_KEYS = ['defaultMakerFeeRate', 'defaultTakerFeeRate'] as const;
const SYMBOL_STATUSES: readonly SymbolStatus[] = ['TRADING', 'HALT', 'BREAK'];

const TRADING_CONFIG_MEMBERS: readonly OperatorParamDoc[] = [
  ...RATE_LIMIT_KEYS.map((name): OperatorParamDoc => ({ name, type: 'INT', description: 'at least 1' })),
  ...CORE_COUNT_KEYS.map((name): OperatorParamDoc => ({ name, type: 'INT' })),
  ...CORE_RATE_KEYS.map((name): OperatorParamDoc => ({ name, type: 'DECIMAL' })),
];

/** The trading configuration of a new data directory, as O17 answers it. */
const TRADING_CONFIG_EXAMPLE = { ...DEFAULT_RATE_LIMIT_SETTINGS, ...DEFAULT_CORE_LIMITS, defaultMakerFeeRate: '0.001', defaultTakerFeeRate: '0.001' };

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Registers every operator endpoint of the registry under `/admin/v1` (docs/operating.md): bearer token
 * compared in constant time, JSON body, the handler's answer as JSON, errors as `{code, msg}`.
 */
export function registerOperatorRoutes(app: FastifyInstance, endpoints: readonly OperatorEndpoint[], adminToken: string): void {
  const expectedToken = digest(adminToken);
  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: operatorPath(endpoint),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          const header = request.headers.authorization;
          if (header === undefined || !header.startsWith('Bearer ')) throw new BourseError('ADMIN_UNAUTHORIZED');
          // Hashing first makes the comparison constant-time whatever the token's length.
          if (!timingSafeEqual(digest(header.slice(7)), expectedToken)) throw new BourseError('ADMIN_INVALID_TOKEN');
          const body = AdminBody.parse(rawParts(request).rawBody, request.headers['content-type']);
          const result = await endpoint.handler({
            body,
            params: request.params as Record<string, string>,
            query: request.query as Record<string, string | undefined>,
          });
          return sendJson(reply, 200, {}, result);
        } catch (error) {
          return sendError(reply, error, {}, request.log);
        }
      },
    });
  }
}

/**
 * The operator API (docs/operating.md) as registry entries: JSON in, JSON out,
 * bearer token. Routing, auth and the OpenAPI document come from this list.
 */
export function adminEndpoints(deps: OperatorDeps): OperatorEndpoint[] {
  const { exchange, auth } = deps;
  const submit = (command: Command): Promise<unknown> => exchange.submit(command);
  // The committed config, rate limits included; the limiter follows it (followTradingConfig).
  const configView = (): Record<string, unknown> => tradingConfigView(exchange.core);

  return [
    {
      id: 'O1',
      summary: 'Create a user with its main account',
      method: 'POST',
      path: '/users',
      response: S.createdUser,
      example: S.EXAMPLES.createdUser,
      body: [
        { name: 'email', type: 'STRING' },
        { name: 'type', type: 'ENUM', values: ['user', 'merchant'], description: 'default user' },
      ],
      handler: ({ body }) => {
        const type = body.string('type') ?? 'user';
        if (type !== 'user' && type !== 'merchant') throw new BourseError('INVALID_PARAM_VALUE', ['type']);
        return submit({ type: 'createUser', email: body.string('email') ?? '', userType: type as UserType, uniqueEmail: true }).then(ids);
      },
    },
    {
      id: 'O2',
      summary: 'Create a sub-account of a user',
      method: 'POST',
      path: '/users/:userId/sub-accounts',
      response: S.createdSubAccount,
      example: S.EXAMPLES.createdSubAccount,
      body: [{ name: 'name', type: 'STRING', description: '1 to 32 characters' }],
      handler: ({ body, params }) => {
        const name = body.string('name', { pattern: /^.{1,32}$/su });
        return submit({ type: 'createSubAccount', userId: pathId(params.userId, 'user'), name: name ?? '' }).then(ids);
      },
    },
    {
      id: 'O3',
      summary: 'Create an API key (the secret is shown only in this answer)',
      method: 'POST',
      path: '/users/:userId/api-keys',
      response: S.createdApiKey,
      example: S.EXAMPLES.createdApiKey,
      body: [
        { name: 'permissions', type: 'STRINGS', values: PERMISSIONS, description: 'default all' },
        { name: 'ipWhitelist', type: 'STRINGS', description: 'IPv4/IPv6 addresses or CIDR blocks; empty = any address' },
        { name: 'label', type: 'STRING' },
        { name: 'accountIndex', type: 'INT', description: 'the account the key acts on; default 0, the main account' },
      ],
      handler: async ({ body, params }) => {
        const permissions = body.strings('permissions') ?? [...PERMISSIONS];
        for (const p of permissions) if (!(PERMISSIONS as readonly string[]).includes(p)) throw new BourseError('INVALID_PARAM_VALUE', ['permissions']);
        const ipWhitelist = body.strings('ipWhitelist') ?? [];
        if (!parseIpWhitelist(ipWhitelist).ok) throw new BourseError('INVALID_PARAM_VALUE', ['ipWhitelist']);
        const apiKey = generateApiCredential();
        const secretKey = generateApiCredential();
        await submit({
          type: 'createApiKey',
          userId: pathId(params.userId, 'user'),
          accountIndex: body.integer('accountIndex') ?? 0,
          apiKey,
          secretSealed: deps.secretBox.seal(secretKey),
          permissions: [...new Set(permissions)] as Permission[],
          ipWhitelist,
          label: body.string('label') ?? '',
        });
        return { apiKey, secretKey, permissions: [...new Set(permissions)] };
      },
    },
    {
      id: 'O4',
      summary: "List a user's API keys (without secrets)",
      method: 'GET',
      path: '/users/:userId/api-keys',
      response: arrayOf(S.apiKeyRow),
      example: S.EXAMPLES.apiKeys,
      handler: ({ params }) => {
        const userId = pathId(params.userId, 'user');
        if (!exchange.core.ledger.users.has(userId)) throw new BourseError('NOT_FOUND', [`user ${userId}`]);
        return [...exchange.core.catalogue.apiKeys.values()]
          .filter((k) => k.userId === userId)
          .map((k) => ({
            apiKey: k.apiKey,
            accountId: String(k.accountId),
            accountIndex: exchange.core.ledger.account(k.accountId).accountIndex,
            permissions: k.permissions,
            ipWhitelist: k.ipWhitelist,
            label: k.label,
            createdAt: k.createdAt,
            revoked: k.revoked,
          }));
      },
    },
    {
      id: 'O5',
      summary: 'Revoke an API key',
      method: 'DELETE',
      path: '/api-keys/:apiKey',
      response: S.revokedApiKey,
      example: S.EXAMPLES.revokedApiKey,
      handler: async ({ params }) => {
        const result = await submit({ type: 'revokeApiKey', apiKey: params.apiKey });
        auth.forget(params.apiKey);
        return result;
      },
    },
    {
      id: 'O6',
      summary: 'Credit a deposit (a simulated chain or bank arrival)',
      method: 'POST',
      path: '/deposits',
      response: S.createdDeposit,
      example: S.EXAMPLES.createdDeposit,
      body: [
        { name: 'accountId', type: 'INT', required: true },
        { name: 'asset', type: 'STRING', required: true },
        { name: 'amount', type: 'DECIMAL', required: true, description: 'greater than 0' },
        { name: 'txId', type: 'STRING', description: 'default a random 64-hex id' },
      ],
      handler: async ({ body }) => {
        const asset = body.string('asset', { required: true });
        const result = (await submit({
          type: 'deposit',
          accountId: body.integer('accountId', { required: true }),
          asset: asset.toUpperCase(),
          amount: body.decimal('amount', true),
          txId: body.string('txId') ?? randomBytes(32).toString('hex'),
        })) as { depositId: number };
        return { depositId: String(result.depositId) };
      },
    },
    {
      id: 'O7',
      summary: 'Approve a pending withdrawal',
      method: 'POST',
      path: '/withdrawals/:id/approve',
      response: S.settledWithdrawal(6),
      example: S.EXAMPLES.withdrawal(6),
      body: [{ name: 'txId', type: 'STRING', description: 'default a random 64-hex id' }],
      handler: async ({ body, params }) =>
        withdrawalView(
          await submit({
            type: 'settleWithdrawal',
            withdrawalId: pathId(params.id, 'withdrawal'),
            approve: true,
            txId: body.string('txId') ?? randomBytes(32).toString('hex'),
            reason: '',
          }),
        ),
    },
    {
      id: 'O8',
      summary: 'Reject a pending withdrawal',
      method: 'POST',
      path: '/withdrawals/:id/reject',
      response: S.settledWithdrawal(2),
      example: S.EXAMPLES.withdrawal(2),
      body: [{ name: 'reason', type: 'STRING' }],
      handler: async ({ body, params }) =>
        withdrawalView(
          await submit({ type: 'settleWithdrawal', withdrawalId: pathId(params.id, 'withdrawal'), approve: false, txId: '', reason: body.string('reason') ?? '' }),
        ),
    },
    {
      id: 'O9',
      summary: 'Add an asset',
      method: 'POST',
      path: '/assets',
      response: S.addedAsset,
      example: S.EXAMPLES.addedAsset,
      body: [
        { name: 'asset', type: 'STRING', required: true, description: '1 to 20 of A-Z and 0-9' },
        { name: 'precision', type: 'INT', required: true },
        { name: 'kind', type: 'ENUM', values: ['crypto', 'fiat'], description: 'default crypto' },
        { name: 'fullName', type: 'STRING', description: 'default the asset' },
        { name: 'chains', type: 'STRINGS', description: 'default [asset] for crypto, [] for fiat' },
        { name: 'withdrawFee', type: 'DECIMAL', description: 'default 0' },
        { name: 'minWithdraw', type: 'DECIMAL', description: 'default 0' },
        { name: 'allowDeposit', type: 'BOOLEAN', description: 'default true for crypto, false for fiat' },
        { name: 'allowWithdraw', type: 'BOOLEAN', description: 'default true for crypto, false for fiat' },
      ],
      handler: ({ body }) => {
        const asset = body.string('asset', { required: true, pattern: FORMATS.token });
        const kind = (body.string('kind') ?? 'crypto') as AssetKind;
        if (kind !== 'crypto' && kind !== 'fiat') throw new BourseError('INVALID_PARAM_VALUE', ['kind']);
        const chains = body.strings('chains') ?? (kind === 'crypto' ? [asset] : []);
        return submit({
          type: 'addAsset',
          asset,
          precision: body.integer('precision', { required: true }),
          kind,
          fullName: body.string('fullName') ?? asset,
          chains,
          withdrawFee: body.decimal('withdrawFee') ?? '0',
          minWithdraw: body.decimal('minWithdraw') ?? '0',
          allowDeposit: body.boolean('allowDeposit') ?? kind === 'crypto',
          allowWithdraw: body.boolean('allowWithdraw') ?? kind === 'crypto',
        });
      },
    },
    {
      id: 'O10',
      summary: 'List a symbol (it starts in TRADING)',
      method: 'POST',
      path: '/symbols',
      response: S.symbolStatusAnswer,
      example: S.EXAMPLES.symbolStatus('TRADING'),
      body: [
        { name: 'symbol', type: 'STRING', required: true, description: '1 to 20 of A-Z and 0-9' },
        { name: 'baseAsset', type: 'STRING', required: true },
        { name: 'quoteAsset', type: 'STRING', required: true },
        { name: 'tickSize', type: 'DECIMAL', required: true },
        { name: 'stepSize', type: 'DECIMAL', required: true },
        { name: 'minPrice', type: 'DECIMAL', description: 'default tickSize' },
        { name: 'maxPrice', type: 'DECIMAL', description: 'default 10000000' },
        { name: 'minQty', type: 'DECIMAL', description: 'default stepSize' },
        { name: 'maxQty', type: 'DECIMAL', description: 'default 1000000' },
        { name: 'minNotional', type: 'DECIMAL', required: true },
      ],
      handler: ({ body }) => {
        const tickSize = body.decimal('tickSize', true);
        const stepSize = body.decimal('stepSize', true);
        return submit({
          type: 'addSymbol',
          symbol: body.string('symbol', { required: true, pattern: FORMATS.symbol }),
          baseAsset: body.string('baseAsset', { required: true }),
          quoteAsset: body.string('quoteAsset', { required: true }),
          tickSize,
          stepSize,
          minPrice: body.decimal('minPrice') ?? tickSize,
          maxPrice: body.decimal('maxPrice') ?? '10000000',
          minQty: body.decimal('minQty') ?? stepSize,
          maxQty: body.decimal('maxQty') ?? '1000000',
          minNotional: body.decimal('minNotional', true),
        });
      },
    },
    {
      id: 'O11',
      summary: "Set a symbol's status: halt or resume trading",
      method: 'PATCH',
      path: '/symbols/:symbol',
      response: S.symbolStatusAnswer,
      example: S.EXAMPLES.symbolStatus('HALT'),
      body: [{ name: 'status', type: 'ENUM', required: true, values: SYMBOL_STATUSES }],
      handler: ({ body, params }) => {
        const status = body.string('status', { required: true }) as SymbolStatus;
        if (!SYMBOL_STATUSES.includes(status)) throw new BourseError('INVALID_PARAM_VALUE', ['status']);
        return submit({ type: 'setSymbolStatus', symbol: params.symbol.toUpperCase(), status });
      },
    },
    {
      id: 'O12',
      summary: "Set an account's fee rates",
      method: 'PATCH',
      path: '/accounts/:accountId',
      response: S.feeRates,
      example: S.EXAMPLES.feeRates,
      body: [
        { name: 'makerFeeRate', type: 'DECIMAL', description: 'at least one of the two' },
        { name: 'takerFeeRate', type: 'DECIMAL', description: 'at least one of the two' },
      ],
      handler: ({ body, params }) => {
        const makerFeeRate = body.decimal('makerFeeRate');
        const takerFeeRate = body.decimal('takerFeeRate');
        if (makerFeeRate === undefined && takerFeeRate === undefined) throw new BourseError('MANDATORY_PARAM', ['makerFeeRate']);
        return submit({ type: 'setFeeRates', accountId: pathId(params.accountId, 'account'), makerFeeRate, takerFeeRate });
      },
    },
    {
      id: 'O13',
      summary: 'List the banned IP addresses',
      method: 'GET',
      path: '/bans',
      response: arrayOf(S.banRow),
      example: S.EXAMPLES.bans,
      handler: () => auth.limiter.listBans(),
    },
    {
      id: 'O14',
      summary: "Lift an IP address's ban",
      method: 'DELETE',
      path: '/bans/:ip',
      response: S.liftedBan,
      example: S.EXAMPLES.liftedBan,
      handler: ({ params }) => {
        const ip = banAddress(params.ip);
        return { ip, lifted: auth.limiter.liftBan(ip) };
      },
    },
    // docs/operating.md "Merchant payments settings": one journaled document, merged member by member (the core checks every member).
    {
      id: 'O15',
      summary: 'Read the payments configuration (area B)',
      method: 'GET',
      path: '/payments/config',
      response: S.paymentsConfig,
      example: defaultPaymentsConfig(),
      handler: () => exchange.core.payments.config,
    },
    {
      id: 'O16',
      summary: 'Change the payments configuration (area B)',
      method: 'PATCH',
      path: '/payments/config',
      response: S.paymentsConfig,
      example: defaultPaymentsConfig(),
      bodyDocument: 'Any members of the payments configuration (as GET answers it), merged member by member; every member is checked.',
      handler: ({ body }) => submit({ type: 'setPaymentsConfig', patch: body.members() }),
    },
    {
      id: 'O17',
      summary: 'Read the trading configuration',
      method: 'GET',
      path: '/trading/config',
      response: S.tradingConfig,
      example: TRADING_CONFIG_EXAMPLE,
      handler: configView,
    },
    {
      id: 'O18',
      summary: 'Change the trading configuration (rate limits, open-order limits, default fees, bans)',
      method: 'PATCH',
      path: '/trading/config',
      response: S.tradingConfig,
      example: TRADING_CONFIG_EXAMPLE,
      body: TRADING_CONFIG_MEMBERS,
      // One journaled command for every member: the core checks them all (integers ≥ 1) before it sets any.
      handler: async ({ body }) => {
        const command: Command = { type: 'setTradingConfig' };
        for (const key of [...RATE_LIMIT_KEYS, ...CORE_COUNT_KEYS]) command[key] = body.integer(key, { min: 1 });
        for (const key of CORE_RATE_KEYS) command[key] = body.decimal(key);
        await submit(command);
        return configView();
      },
    },
    {
      id: 'O19',
      summary: 'Check the ledger',
      method: 'GET',
      path: '/verify',
      response: S.verifyReport,
      example: S.EXAMPLES.verify,
      query: [{ name: 'replay', type: 'STRING', description: '1 or true: also replay the whole journal and compare state hashes' }],
      handler: ({ query }) => exchange.verify({ replay: query.replay === '1' || query.replay === 'true' }),
    },
  ];
}

/**
 * The address a ban is kept under, from the operator's text: an IPv4 or IPv6 address (-1100
 * otherwise), IPv4-mapped IPv6 as its IPv4 and IPv6 in its one compressed form, as bans record
 * the peer address (`0:0:0:0:0:0:0:1` lifts the ban of `::1`).
 */
function banAddress(text: string): string {
  const ip = normalizePeerAddress(text);
  const version = isIP(ip);
  if (version === 0) throw new BourseError('ILLEGAL_CHARS', ['ip', 'an IPv4 or IPv6 address']);
  // A zone id (`fe80::1%eth0`) is kept as sent: the URL parser, which compresses, refuses one.
  return version === 4 || ip.includes('%') ? ip : new URL(`http://[${ip}]`).hostname.slice(1, -1);
}

/** Ids as strings in answers (docs/operating.md "Values"). */
function ids(result: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(result as Record<string, unknown>)) {
    out[name] = typeof value === 'number' && name !== 'accountIndex' ? String(value) : value;
  }
  return out;
}

function withdrawalView(result: unknown): Record<string, unknown> {
  const row = result as Record<string, unknown>;
  return { ...row, withdrawalId: String(row.withdrawalId), accountId: String(row.accountId) };
}
