import { isIP } from 'node:net';
import { BourseError } from '../../core/errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import { DEFAULT_CORE_LIMITS, DEFAULT_RATE_LIMIT_SETTINGS, RATE_LIMIT_KEYS, tradingConfigView } from '../../exchange/trading-config.js';
import { defaultPaymentsConfig } from '../../payments/config.js';
import { normalizePeerAddress } from '../auth/ip-whitelist.js';
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
const TRADING_CONFIG_EXAMPLE = { ...DEFAULT_RATE_LIMIT_SETTINGS, ...DEFAULT_CORE_LIMITS, defaultMakerFeeRate: '0.001', defaultTakerFeeRate: '0.001' };

/**
 * The deployment's settings and checks (docs/operating.md), O13–O19: bans, the payments and the
 * trading configuration, the ledger check.
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
      handler: () => limiter.listBans(),
    }),
    operatorEndpoint({
      id: 'O14',
      summary: "Lift an IP address's ban",
      method: 'DELETE',
      path: '/bans/:ip',
      response: S.liftedBan,
      example: S.EXAMPLES.liftedBan,
      params: { path: { ip: P.parsed({ type: 'string', description: 'an IPv4 or IPv6 address' }, banAddress) } },
      handler: ({ path }) => ({ ip: path.ip, lifted: limiter.liftBan(path.ip) }),
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
      summary: 'Change the trading configuration (rate limits, open-order limits, default fees, bans)',
      method: 'PATCH',
      path: '/trading/config',
      response: S.tradingConfig,
      example: TRADING_CONFIG_EXAMPLE,
      params: {
        body: B.members({
          ...B.each(RATE_LIMIT_KEYS, B.integer({ min: 1 })),
          ...B.each(CORE_COUNT_KEYS, B.integer({ min: 1 })),
          ...B.each(CORE_RATE_KEYS, B.decimal()),
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
function banAddress(text: string): string {
  const ip = normalizePeerAddress(text);
  const version = isIP(ip);
  if (version === 0) throw new BourseError('ILLEGAL_CHARS', ['ip', 'an IPv4 or IPv6 address']);
  // A zone id (`fe80::1%eth0`) is kept as sent: the URL parser, which compresses, refuses one.
  return version === 4 || ip.includes('%') ? ip : new URL(`http://[${ip}]`).hostname.slice(1, -1);
}
