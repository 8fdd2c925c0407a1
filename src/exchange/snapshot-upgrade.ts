import type { CatalogueImage } from './catalogue-module.js';
import { ClientOrderIds, type ClientOrderIdsImage } from './client-order-ids.js';
import type { FundsImage } from './funds-module.js';
import { withEmptyStatusLogs, type PaymentsImageBeforeStatusLog } from './payments/payments-image.js';
import { IMAGE_VERSION, type CoreImage, type LedgerImage } from './snapshot-image.js';
import type { SpotImage } from './spot-module.js';

/**
 * Images of versions 1 and 2 were one flat object for the whole (area A) core: version 1 listed
 * every order's client id, version 2 carried them as `ClientOrderIdsImage`.
 */
export type OlderImage = Omit<LedgerImage, 'counters'> &
  Omit<SpotImage, 'counters' | 'clientOrderIds'> &
  Omit<FundsImage, 'counters'> &
  CatalogueImage & {
    lastSeq: number;
    lastTs: number;
    counters: LedgerImage['counters'] & SpotImage['counters'] & FundsImage['counters'];
  } & ({ version: 1; clientOrderIds: [number, [string, number][]][] } | { version: 2; clientOrderIds: ClientOrderIdsImage });

/** Version 3: today's layout, without the spot part's `rateLimits` (restored as the defaults). */
export type Version3Image = Omit<CoreImage, 'version'> & { version: 3 };

/** Version 4: today's layout without the `listenKeys` part (they lived in memory then): the module starts empty. */
export type Version4Image = Omit<CoreImage, 'version'> & { version: 4 };

/** Version 5: today's layout without the `ipBans` part (bans lived in each limiter's memory then): the module starts empty. */
export type Version5Image = Omit<CoreImage, 'version'> & { version: 5 };

/** Version 6: today's layout without the payment orders' status logs: each order's is empty (payments-image.ts `withEmptyStatusLogs`). */
export type Version6Image = Omit<CoreImage, 'version'> & { version: 6 };

/**
 * Version 7: today's layout without the spot part's algo settings, last prices, iceberg parts and
 * order stop members, which restore as the option off, no trade yet and no stop or iceberg orders
 * (none existed). The last trade price before the upgrade is not known to such an image: stop
 * orders placed before the next trade accept any stop price.
 */
export type Version7Image = Omit<CoreImage, 'version'> & { version: 7 };

/** Versions 3 to 6: the payments part, when there is one, in today's layout. */
function paymentsUpgraded(modules: CoreImage['modules']): CoreImage['modules'] {
  const payments = modules.payments as PaymentsImageBeforeStatusLog | undefined;
  return payments === undefined ? modules : { ...modules, payments: withEmptyStatusLogs(payments) };
}

/** The same state in today's layout: each module's part under its name. */
export function upgradeImage(old: OlderImage | Version3Image | Version4Image | Version5Image | Version6Image | Version7Image): CoreImage {
  if (old.version === 7) return { ...old, version: IMAGE_VERSION };
  if (old.version === 3 || old.version === 4 || old.version === 5 || old.version === 6) return { ...old, version: IMAGE_VERSION, modules: paymentsUpgraded(old.modules) };
  if (old.version !== 1 && old.version !== 2) throw new Error(`unknown snapshot version ${String((old as { version: unknown }).version)}`);
  const c = old.counters;
  const clientOrderIds = old.version === 1 ? ClientOrderIds.fromEntries(old.clientOrderIds).image(c.nextOrderId) : old.clientOrderIds;
  const spot: SpotImage = { counters: { nextOrderId: c.nextOrderId, nextTradeId: c.nextTradeId }, limits: old.limits, symbols: old.symbols, orders: old.orders, clientOrderIds };
  const funds: FundsImage = {
    counters: { nextDepositId: c.nextDepositId, nextWithdrawalId: c.nextWithdrawalId },
    withdrawals: old.withdrawals,
    withdrawalClientIds: old.withdrawalClientIds,
    transferClientIds: old.transferClientIds,
  };
  const catalogue: CatalogueImage = { apiKeys: old.apiKeys };
  return {
    version: IMAGE_VERSION,
    lastSeq: old.lastSeq,
    lastTs: old.lastTs,
    ledger: {
      counters: { nextUserId: c.nextUserId, nextAccountId: c.nextAccountId, nextFlowId: c.nextFlowId },
      defaultFeeRates: old.defaultFeeRates,
      assets: old.assets,
      users: old.users,
      accounts: old.accounts,
    },
    modules: { catalogue, spot, funds },
  };
}
