import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BourseError } from '../../core/errors.js';
import { PERMISSIONS, type AssetKind, type Command, type Permission, type SymbolStatus, type UserType } from '../../core/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import { tradingConfigView } from '../../exchange/trading-config.js';
import type { Authenticator } from '../auth/authenticate.js';
import { parseIpWhitelist } from '../auth/ip-whitelist.js';
import { generateApiCredential } from '../auth/keys.js';
import type { RateLimitConfig } from '../auth/rate-limiter.js';
import type { SecretBox } from '../auth/secret-box.js';
import { FORMATS } from '../params.js';
import { rawParts, sendError, sendJson } from '../spot/spot-routes.js';
import { AdminBody, pathId } from './admin-body.js';

export interface AdminDeps {
  exchange: Exchange;
  auth: Authenticator;
  secretBox: SecretBox;
  adminToken: string;
}

interface AdminRequest {
  body: AdminBody;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
}

type AdminHandler = (request: AdminRequest) => Promise<unknown> | unknown;

const RATE_LIMIT_KEYS = ['requestWeightPerMinute', 'ordersPerSecond', 'ordersPerDay', 'banStrikes', 'banBaseMs', 'banMaxMs', 'listenKeyTtlMs'] as const;
const CORE_COUNT_KEYS = ['maxOpenOrdersPerSymbol', 'maxOpenOrdersPerAccount'] as const;
const CORE_RATE_KEYS = ['defaultMakerFeeRate', 'defaultTakerFeeRate'] as const;
const SYMBOL_STATUSES: readonly SymbolStatus[] = ['TRADING', 'HALT', 'BREAK'];

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The operator API (operator.md, area A §10): JSON in, JSON out, bearer token. */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const { exchange, auth } = deps;
  const expectedToken = digest(deps.adminToken);

  const route = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, handler: AdminHandler): void => {
    app.route({
      method,
      url: `/admin/v1${url}`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          const header = request.headers.authorization;
          if (header === undefined || !header.startsWith('Bearer ')) throw new BourseError('ADMIN_UNAUTHORIZED');
          // Hashing first makes the comparison constant-time whatever the token's length.
          if (!timingSafeEqual(digest(header.slice(7)), expectedToken)) throw new BourseError('ADMIN_INVALID_TOKEN');
          const body = AdminBody.parse(rawParts(request).rawBody);
          const result = await handler({
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
  };

  const submit = (command: Command): Promise<unknown> => exchange.submit(command);

  route('POST', '/users', ({ body }) => {
    const type = body.string('type') ?? 'user';
    if (type !== 'user' && type !== 'merchant') throw new BourseError('INVALID_PARAM_VALUE', ['type']);
    return submit({ type: 'createUser', email: body.string('email') ?? '', userType: type as UserType }).then(ids);
  });

  route('POST', '/users/:userId/sub-accounts', ({ body, params }) => {
    const name = body.string('name', { pattern: /^.{1,32}$/su });
    return submit({ type: 'createSubAccount', userId: pathId(params.userId, 'user'), name: name ?? '' }).then(ids);
  });

  route('POST', '/users/:userId/api-keys', async ({ body, params }) => {
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
  });

  route('GET', '/users/:userId/api-keys', ({ params }) => {
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
  });

  route('DELETE', '/api-keys/:apiKey', async ({ params }) => {
    const result = await submit({ type: 'revokeApiKey', apiKey: params.apiKey });
    auth.forget(params.apiKey);
    return result;
  });

  route('POST', '/deposits', async ({ body }) => {
    const asset = body.string('asset', { required: true });
    const result = (await submit({
      type: 'deposit',
      accountId: body.integer('accountId', true),
      asset: asset.toUpperCase(),
      amount: body.decimal('amount', true),
      txId: body.string('txId') ?? randomBytes(32).toString('hex'),
    })) as { depositId: number };
    return { depositId: String(result.depositId) };
  });

  route('POST', '/withdrawals/:id/approve', async ({ body, params }) =>
    withdrawalView(
      await submit({
        type: 'settleWithdrawal',
        withdrawalId: pathId(params.id, 'withdrawal'),
        approve: true,
        txId: body.string('txId') ?? randomBytes(32).toString('hex'),
        reason: '',
      }),
    ),
  );

  route('POST', '/withdrawals/:id/reject', async ({ body, params }) =>
    withdrawalView(
      await submit({ type: 'settleWithdrawal', withdrawalId: pathId(params.id, 'withdrawal'), approve: false, txId: '', reason: body.string('reason') ?? '' }),
    ),
  );

  route('POST', '/assets', ({ body }) => {
    const asset = body.string('asset', { required: true, pattern: FORMATS.token });
    const kind = (body.string('kind') ?? 'crypto') as AssetKind;
    if (kind !== 'crypto' && kind !== 'fiat') throw new BourseError('INVALID_PARAM_VALUE', ['kind']);
    const chains = body.strings('chains') ?? (kind === 'crypto' ? [asset] : []);
    return submit({
      type: 'addAsset',
      asset,
      precision: body.integer('precision', true),
      kind,
      fullName: body.string('fullName') ?? asset,
      chains,
      withdrawFee: body.decimal('withdrawFee') ?? '0',
      minWithdraw: body.decimal('minWithdraw') ?? '0',
      allowDeposit: body.boolean('allowDeposit') ?? kind === 'crypto',
      allowWithdraw: body.boolean('allowWithdraw') ?? kind === 'crypto',
    });
  });

  route('POST', '/symbols', ({ body }) => {
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
  });

  route('PATCH', '/symbols/:symbol', ({ body, params }) => {
    const status = body.string('status', { required: true }) as SymbolStatus;
    if (!SYMBOL_STATUSES.includes(status)) throw new BourseError('INVALID_PARAM_VALUE', ['status']);
    return submit({ type: 'setSymbolStatus', symbol: params.symbol.toUpperCase(), status });
  });

  route('PATCH', '/accounts/:accountId', ({ body, params }) => {
    const makerFeeRate = body.decimal('makerFeeRate');
    const takerFeeRate = body.decimal('takerFeeRate');
    if (makerFeeRate === undefined && takerFeeRate === undefined) throw new BourseError('MANDATORY_PARAM', ['makerFeeRate']);
    return submit({ type: 'setFeeRates', accountId: pathId(params.accountId, 'account'), makerFeeRate, takerFeeRate });
  });

  route('GET', '/bans', () => auth.limiter.listBans());
  route('DELETE', '/bans/:ip', ({ params }) => ({ ip: params.ip, lifted: auth.limiter.liftBan(params.ip) }));

  const configView = (): Record<string, unknown> => ({
    ...pick(auth.limiter.config, RATE_LIMIT_KEYS),
    ...tradingConfigView(exchange.core),
  });
  // Area B §1.7: one journaled document, merged member by member (the core checks every member).
  route('GET', '/payments/config', () => exchange.core.payments.config);
  route('PATCH', '/payments/config', ({ body }) => submit({ type: 'setPaymentsConfig', patch: body.members() }));

  route('GET', '/trading/config', configView);
  route('PATCH', '/trading/config', async ({ body }) => {
    const limits: Partial<RateLimitConfig> = {};
    for (const key of RATE_LIMIT_KEYS) {
      const value = body.integer(key);
      if (value === undefined) continue;
      if (value < 1) throw new BourseError('INVALID_PARAM_VALUE', [key]);
      limits[key] = value;
    }
    const command: Command = { type: 'setTradingConfig' };
    for (const key of CORE_COUNT_KEYS) command[key] = body.integer(key);
    for (const key of CORE_RATE_KEYS) command[key] = body.decimal(key);
    await submit(command);
    Object.assign(auth.limiter.config, limits);
    return configView();
  });

  route('GET', '/verify', ({ query }) => exchange.verify({ replay: query.replay === '1' || query.replay === 'true' }));
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = source[key];
  return out;
}

/** Ids as strings in answers (operator.md "Values"). */
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

