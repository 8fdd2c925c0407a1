import { ok } from './answers.js';
import { AdminClient, SpotClient } from './clients.js';
import type { TestServer } from './server.js';

export interface UserRef {
  userId: string;
  /** The user's main account. */
  accountId: string;
}
/** A user and a key bound to its main account. */
export interface Member extends UserRef {
  client: SpotClient;
}
export interface ApiKey {
  apiKey: string;
  secretKey: string;
}
/** The body of `POST /admin/v1/users/{userId}/api-keys`; empty means a main-account key with every permission. */
export interface KeyOptions {
  accountIndex?: number;
  permissions?: string[];
}
export interface SubAccount {
  accountId: string;
  accountIndex: number;
}
/** A user with one sub-account (index 1) and a key bound to each account. */
export interface Family {
  userId: string;
  mainId: string;
  subId: string;
  main: SpotClient;
  sub: SpotClient;
}
/** The body of `POST /admin/v1/assets`. */
export interface NewAsset {
  asset: string;
  precision: number;
  chains: string[];
  withdrawFee?: string;
  minWithdraw?: string;
}

/** A30 parameters of a main key sending from its main account to sub-account 1. */
export const MAIN_TO_SUB = { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1 } as const;

/**
 * Sets up users, keys and funds through the operator API of one test server, as an operator
 * would; every call must answer 200, so a broken setup fails where it happens.
 */
export class Operator {
  readonly admin: AdminClient;

  constructor(private readonly t: Pick<TestServer, 'url' | 'adminToken'>) {
    this.admin = new AdminClient(t.url, t.adminToken);
  }

  async ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    return ok<T>(await this.admin.send(method, path, body));
  }

  user(): Promise<UserRef> {
    return this.ok('POST', '/users', {});
  }

  /** Credits a deposit; answers its id. */
  async deposit(accountId: string, asset: string, amount: string, txId?: string): Promise<string> {
    const body = { accountId, asset, amount, ...(txId === undefined ? {} : { txId }) };
    return (await this.ok<{ depositId: string }>('POST', '/deposits', body)).depositId;
  }

  /** One deposit per asset, in the order given. */
  async fund(accountId: string, funds: Readonly<Record<string, string>>): Promise<void> {
    for (const [asset, amount] of Object.entries(funds)) await this.deposit(accountId, asset, amount);
  }

  subAccount(userId: string, name?: string): Promise<SubAccount> {
    return this.ok('POST', `/users/${userId}/sub-accounts`, name === undefined ? {} : { name });
  }

  newKey(userId: string, options: KeyOptions = {}): Promise<ApiKey> {
    return this.ok('POST', `/users/${userId}/api-keys`, options);
  }

  /** A client signing with a new key of the user. */
  async keyOf(userId: string, options: KeyOptions = {}): Promise<SpotClient> {
    const key = await this.newKey(userId, options);
    return new SpotClient(this.t.url, key.apiKey, key.secretKey);
  }

  /** A new user with `funds` deposited in its main account and a key bound to it. */
  async member(funds: Readonly<Record<string, string>> = {}, key: KeyOptions = {}): Promise<Member> {
    const user = await this.user();
    await this.fund(user.accountId, funds);
    return { ...user, client: await this.keyOf(user.userId, key) };
  }

  /** A new user with one sub-account, `funds` deposited in the main account, and a key for each account. */
  async family(funds: Readonly<Record<string, string>> = {}, options: { subName?: string; mainKey?: KeyOptions } = {}): Promise<Family> {
    const user = await this.user();
    const sub = await this.subAccount(user.userId, options.subName);
    await this.fund(user.accountId, funds);
    return {
      userId: user.userId,
      mainId: user.accountId,
      subId: sub.accountId,
      main: await this.keyOf(user.userId, options.mainKey),
      sub: await this.keyOf(user.userId, { accountIndex: sub.accountIndex }),
    };
  }

  /**
   * Lists `asset` and its market against USDT (tick and step 0.01, minimum notional 1), so that a
   * file's trades happen on a book nothing else trades on.
   */
  async listUsdtMarket(asset: NewAsset): Promise<void> {
    await this.ok('POST', '/assets', asset);
    const symbol = { symbol: `${asset.asset}USDT`, baseAsset: asset.asset, quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.01', minNotional: '1' };
    await this.ok('POST', '/symbols', symbol);
  }

  async tradingConfig(patch: Readonly<Record<string, number>>): Promise<void> {
    await this.ok('PATCH', '/trading/config', patch);
  }
}
