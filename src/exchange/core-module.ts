import { BourseError } from '../core/errors.js';
import type { Command, CommandType } from '../core/types.js';
import type { Account } from '../ledger/account.js';
import type { Ledger, PostingContext } from '../ledger/ledger.js';

/**
 * What every module shares: the ledger (assets, users, accounts and their balances) and the
 * account lookup commands use. Each command's posting context (seq, time, the rows it derives)
 * comes with `apply`. What a module needs of another is a port it declares and takes in its
 * constructor; no module reaches the core that composes it.
 */
export interface CoreContext {
  readonly ledger: Ledger;
  /** The account a command names; NOT_FOUND (a refusal) when there is none. */
  account(accountId: number): Account;
}

export function coreContext(ledger: Ledger): CoreContext {
  return {
    ledger,
    account(accountId) {
      const account = ledger.accounts.get(accountId);
      if (account === undefined) throw new BourseError('NOT_FOUND', [`account ${accountId}`]);
      return account;
    },
  };
}

/**
 * A time-driven transition (a command; the core reads no clock): the deadline is stored on its object; when
 * `at` has passed, a scheduler outside the core submits `command`, which is guarded by the state
 * it expects, so a late or repeated submission changes nothing.
 */
export interface Deadline {
  at: number;
  command: Command;
}

/** A finding of a module's own consistency check, reported by the operator's `verify`. */
export interface ModuleCheck {
  ok: boolean;
  detail: Record<string, string>;
}

/**
 * One domain of the state machine (spot trading, funds, payments, …): it owns its state, the
 * commands that change it, its part of the snapshot image and the rows it derives. The core routes
 * each command to the module that declares its type; the ledger is shared by all.
 */
export interface CoreModule<Image = unknown> {
  /** Key of the module's part in the snapshot image. */
  readonly name: string;
  readonly commandTypes: readonly CommandType[];
  apply(command: Command, ctx: PostingContext): unknown;
  /** Validates a command without changing anything (A12 test order); throws a refusal, or throws when the module checks no such command. */
  check?(command: Command, ctx: PostingContext): void;
  /** Canonical JSON-ready image: equal states give equal images. */
  image(): Image;
  /** Rebuilds the module from `image()`'s output; the ledger is already restored. */
  restore(image: Image): void;
  /** Deadlines its objects carry now. */
  deadlines?(): Iterable<Deadline>;
  /** Its invariants against the ledger (e.g. locked balances equal what its objects reserve). */
  verify?(): ModuleCheck[];
}

/** Sorts `[key, value]` pairs by key: maps become canonical arrays. */
export function sortedEntries<K extends string | number, V>(map: ReadonlyMap<K, V>): [K, V][] {
  return [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
