import { BourseError } from '../../core/errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import { banAddress, type IpBan, type IpBanLiftedResult } from '../../exchange/ip-ban-module.js';
import { ALGO_COUNT_KEYS, DEFAULT_ALGO_SETTINGS, DEFAULT_CORE_LIMITS, DEFAULT_RATE_LIMIT_SETTINGS, RATE_LIMIT_KEYS, tradingConfigView } from '../../exchange/trading-config.js';
import { defaultPaymentsConfig } from '../../payments/config.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { arrayOf } from '../response-schema.js';
import * as B from './body-members.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as Q from './query-params.js';
import * as S from './schemas.js';

const CORE_COUNT_KEYS = ['maxOpenOrdersPerSymbol', 'maxOpenOrdersPerAccount'] as const;
const CORE_RATE_KEYS = ['defaultMakerFeeRate', 'defaultTakerFeeRate'] as const;

/** The trading configuration of a new data directory, as O17 answers it. */
const TRADING_CONFIG_EXAMPLE = {
  ...DEFAULT_RATE_LIMIT_SETTINGS,
  ...DEFAULT_CORE_LIMITS,
  defaultMakerFeeRate: '0.001',
  defaultTakerFeeRate: '0.001',
  ...DEFAULT_ALGO_SETTINGS,
};

/** An address as the operator writes it (docs/operating.md "Trading settings and listings"). */
const IP_DESCRIPTION = 'an IPv4 or IPv6 address';

/**
 * The deployment's settings and checks (docs/operating.md), O13–O19 and O29: bans, the payments and
 * the trading configuration, the ledger check. Bans are journaled (`ipBanned`, `ipBanLifted`): every
 * node of a deployment follows them (followBans), so a ban set or lifted here holds on all of them.
 */
export function settingsEndpoints(exchange: Exchange, limiter: RateLimiter): OperatorEndpoint[] {
  // The committed config, rate limits included; the limiter follows it (followTradingConfig).
  const configView = (): Record<string, unknown> => tradingConfigView(exchange.core);

  return [
    operatorEndpoint({
      id: 'O13',
      summary: 'List the banned IP addresses',
      method: 'GET',
      path: '/bans',
      response: arrayOf(S.banRow),
      example: S.EXAMPLES.bans,
      // The journaled bans and the ones this node started that are not journaled yet.
      handler: () => limiter.listBans(),
    }),
    operatorEndpoint({
      id: 'O29',
      summary: 'Ban an IP address',
      method: 'POST',
      path: '/bans',
      response: S.banRow,
      example: S.EXAMPLES.ban,
      params: {
        body: B.members({
          ip: B.required(address()),
          bannedUntil: B.required(
            B.checked(B.integer({ min: 1, description: 'end of the ban, ms since the Unix epoch; in the future' }), (ms) => ms > exchange.clock()),
          ),
          banCount: B.integer({ min: 1, description: 'n of the n-th ban; default: one more than the last ban of the address, 1 when it has none that ended less than 24 h ago' }),
        }),
      },
      // Also how a follower journals a ban its limiter started (with the count it computed, so a repeat changes nothing).
      handler: async ({ body }) => {
        const banCount = body.banCount ?? limiter.nextBanCount(body.ip);
        const ban = await exchange.submit<IpBan>({ type: 'ipBanned', ip: body.ip, bannedUntil: body.bannedUntil, banCount });
        // Already taken by followBans when the commit came first; this node refuses the address either way.
        limiter.recordBan(ban);
        return ban;
      },
    }),
    operatorEndpoint({
      id: 'O14',
      summary: "Lift an IP address's ban",
      method: 'DELETE',
      path: '/bans/:ip',
      response: S.liftedBan,
      example: S.EXAMPLES.liftedBan,
      params: { path: { ip: P.parsed({ type: 'string', description: IP_DESCRIPTION }, operatorAddress) } },
      handler: async ({ path }) => {
        // Seen before the lift: a ban this node started and has not journaled yet is in force too.
        const inForce = limiter.banStatus(path.ip) !== undefined;
        const { lifted } = await exchange.submit<IpBanLiftedResult>({ type: 'ipBanLifted', ip: path.ip });
        limiter.liftBan(path.ip);
        return { ip: path.ip, lifted: inForce || lifted };
      },
    }),
    // docs/operating.md "Merchant payments settings": one journaled document, merged member by member (the core checks every member).
    operatorEndpoint({
      id: 'O15',
      summary: 'Read the payments configuration (area B)',
      method: 'GET',
      path: '/payments/config',
      response: S.paymentsConfig,
      example: defaultPaymentsConfig(),
      handler: () => exchange.core.payments.config,
    }),
    operatorEndpoint({
      id: 'O16',
      summary: 'Change the payments configuration (area B)',
      method: 'PATCH',
      path: '/payments/config',
      response: S.paymentsConfig,
      example: defaultPaymentsConfig(),
      params: { body: B.partialDocument('Any members of the payments configuration (as GET answers it), merged member by member; every member is checked.') },
      handler: ({ body }) => exchange.submit({ type: 'setPaymentsConfig', patch: body }),
    }),
    operatorEndpoint({
      id: 'O17',
      summary: 'Read the trading configuration',
      method: 'GET',
      path: '/trading/config',
      response: S.tradingConfig,
      example: TRADING_CONFIG_EXAMPLE,
      handler: configView,
    }),
    operatorEndpoint({
      id: 'O18',
      summary: 'Change the trading configuration (rate limits, open-order limits, default fees, bans, algo orders)',
      method: 'PATCH',
      path: '/trading/config',
      response: S.tradingConfig,
      example: TRADING_CONFIG_EXAMPLE,
      params: {
        body: B.members({
          ...B.each(RATE_LIMIT_KEYS, B.integer({ min: 1 })),
          ...B.each(CORE_COUNT_KEYS, B.integer({ min: 1 })),
          ...B.each(CORE_RATE_KEYS, B.decimal()),
          // Typed as the spec types them: JSON true/false, JSON integers (a string is refused, -1100).
          algoOrders: B.flag({ description: 'stop-loss, take-profit and iceberg orders on or off (docs/spot-api.md "Stop and iceberg orders")' }),
          ...B.each(ALGO_COUNT_KEYS, B.integer({ min: 1 })),
        }),
      },
      // One journaled command for every member: the core checks them all before it sets any.
      handler: async ({ body }) => {
        await exchange.submit({ type: 'setTradingConfig', ...body });
        return configView();
      },
    }),
    operatorEndpoint({
      id: 'O19',
      summary: 'Check the ledger',
      method: 'GET',
      path: '/verify',
      response: S.verifyReport,
      example: S.EXAMPLES.verify,
      params: { query: { replay: Q.on({ description: '1 or true: also replay the whole journal and compare state hashes' }) } },
      handler: ({ query }) => exchange.verify({ replay: query.replay }),
    }),
  ];
}

/**
 * The address a ban is kept under, from the operator's text: an IPv4 or IPv6 address (-1100
 * otherwise), IPv4-mapped IPv6 as its IPv4 and IPv6 in its one compressed form, as bans record
 * the peer address (`0:0:0:0:0:0:0:1` lifts the ban of `::1`).
 */
function operatorAddress(text: string, name = 'ip'): string {
  const ip = banAddress(text);
  if (ip === undefined) throw new BourseError('ILLEGAL_CHARS', [name, IP_DESCRIPTION]);
  return ip;
}

/** A body member holding an address, read as `operatorAddress` reads the path's. */
function address(): B.Member<string | undefined> {
  const member = B.text({ description: `${IP_DESCRIPTION}, in any spelling` });
  return { ...member, read: (sent, name) => (sent === undefined || sent === null ? undefined : operatorAddress(member.read(sent, name) ?? '', name)) };
}
