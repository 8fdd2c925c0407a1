import type { WebhookEventType } from '../../core/webhook-commands.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { BookLevel } from '../../payments/pricing.js';

/** The key lookup the catalogue offers: a token is issued for a live key of a merchant user. */
export interface ApiKeyLookup {
  apiKey(apiKey: string): { userId: number; revoked: boolean } | undefined;
}

/** The spot books a price walks (docs/merchant-payments.md "Quotes and orders"). */
export interface PriceBooks {
  /** A side of a trading symbol's book, best first; undefined when the symbol is unknown or halted. */
  bookLevels(symbol: string, side: 'asks' | 'bids'): Iterable<BookLevel> | undefined;
}

/** What the desk's own area A orders lock (docs/merchant-payments.md: the operator rebalances through area A), for `verify`. */
export interface SpotLocks {
  locksOf(accountId: number): Iterable<{ asset: string; atoms: bigint }>;
}

/**
 * The outbox a status change writes to, in the same command and so the same journal batch
 * (docs/webhooks.md "Registering"): one event per change, if the user has an active webhook of the type.
 */
export interface Outbox {
  record(ctx: PostingContext, userId: number, eventType: WebhookEventType, objectId: string, objectStatus: string, fields: () => Record<string, string | number>): void;
}

/** What the payments module needs of the others. */
export interface PaymentsPorts {
  keys: ApiKeyLookup;
  books: PriceBooks;
  spotLocks: SpotLocks;
  outbox: Outbox;
}
