import { ATTO_SCALE, attoToUnits } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import type {
  AddAssetCommand,
  Command,
  CommandType,
  CreateApiKeyCommand,
  CreateSubAccountCommand,
  Permission,
  RevokeApiKeyCommand,
  SetFeeRatesCommand,
} from '../core/types.js';
import type { User } from '../ledger/account.js';
import type { PostingContext } from '../ledger/ledger.js';
import { decimalOrReject } from './amounts.js';
import { sortedEntries, type CoreContext, type CoreModule } from './core-module.js';
import { formatFeeRate, parseFeeRate } from './trading-config.js';

export interface ApiKeyRecord {
  apiKey: string;
  userId: number;
  accountId: number;
  secretSealed: string;
  permissions: Permission[];
  ipWhitelist: string[];
  label: string;
  createdAt: number;
  revoked: boolean;
}

export interface CatalogueImage {
  apiKeys: ApiKeyRecord[];
}

/** The catalogue's port: the payments desk, a system user the operator may trade for through area A (docs/merchant-payments.md: rebalancing), so it may hold API keys. */
export interface DeskAccount {
  /** The desk's account; 0 until payments are set up. */
  readonly deskAccountId: number;
}

const CATALOGUE_COMMANDS = ['createUser', 'createSubAccount', 'createApiKey', 'revokeApiKey', 'addAsset', 'setFeeRates'] as const satisfies readonly CommandType[];
type CatalogueCommand = Extract<Command, { type: (typeof CATALOGUE_COMMANDS)[number] }>;

/** Users, their accounts and API keys, assets and fee rates: what every other module builds on. */
export class CatalogueModule implements CoreModule<CatalogueImage> {
  readonly name = 'catalogue';
  readonly commandTypes = CATALOGUE_COMMANDS;
  readonly apiKeys = new Map<string, ApiKeyRecord>();

  constructor(
    private readonly context: CoreContext,
    private readonly desk: DeskAccount,
  ) {}

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as CatalogueCommand;
    const ledger = this.context.ledger;
    switch (cmd.type) {
      case 'createUser': {
        if (cmd.uniqueEmail === true) this.refuseTakenEmail(cmd.email);
        const user = ledger.createUser(cmd.email, cmd.userType);
        return { userId: user.userId, accountId: user.accountIds[0] };
      }
      case 'createSubAccount':
        return this.createSubAccount(cmd);
      case 'createApiKey':
        return this.createApiKey(cmd, ctx);
      case 'revokeApiKey':
        return this.revokeApiKey(cmd);
      case 'addAsset':
        return this.addAsset(cmd);
      case 'setFeeRates':
        return this.setFeeRates(cmd);
    }
  }

  /** The key lookup the catalogue offers (a token is issued for a live key). */
  apiKey(apiKey: string): ApiKeyRecord | undefined {
    return this.apiKeys.get(apiKey);
  }

  /**
   * One user per e-mail: a non-empty e-mail already a user's (case-insensitive, system users
   * aside) is refused. A scan of the users, so nothing beyond the users themselves is state.
   */
  private refuseTakenEmail(email: string): void {
    const wanted = email.trim().toLowerCase();
    if (wanted === '') return;
    for (const user of this.context.ledger.users.values()) {
      if (user.userType !== 'system' && user.email.trim().toLowerCase() === wanted) reject('INVALID_PARAM_VALUE', ['email'], `A user with the e-mail ${email.trim()} exists already (user ${user.userId}).`);
    }
  }

  private userOf(userId: number): User {
    const user = this.context.ledger.users.get(userId);
    if (user === undefined || user.userType === 'system') throw new BourseError('NOT_FOUND', [`user ${userId}`]);
    return user;
  }

  private createSubAccount(cmd: CreateSubAccountCommand): unknown {
    const user = this.userOf(cmd.userId);
    const account = this.context.ledger.createAccount(user, cmd.name || `sub${user.accountIds.length}`);
    return { accountId: account.accountId, accountIndex: account.accountIndex };
  }

  private createApiKey(cmd: CreateApiKeyCommand, ctx: PostingContext): unknown {
    const ledger = this.context.ledger;
    const deskUserId = ledger.accounts.get(this.desk.deskAccountId)?.userId;
    const user = cmd.userId === deskUserId ? ledger.users.get(cmd.userId) ?? this.userOf(cmd.userId) : this.userOf(cmd.userId);
    const accountId = user.accountIds[cmd.accountIndex];
    if (accountId === undefined) throw new BourseError('NOT_FOUND', [`account index ${cmd.accountIndex} of user ${cmd.userId}`]);
    if (this.apiKeys.has(cmd.apiKey)) throw new Error('API key collision');
    this.apiKeys.set(cmd.apiKey, {
      apiKey: cmd.apiKey,
      userId: user.userId,
      accountId,
      secretSealed: cmd.secretSealed,
      permissions: [...cmd.permissions],
      ipWhitelist: [...cmd.ipWhitelist],
      label: cmd.label,
      createdAt: ctx.ts,
      revoked: false,
    });
    return { apiKey: cmd.apiKey, accountId, permissions: cmd.permissions };
  }

  private revokeApiKey(cmd: RevokeApiKeyCommand): unknown {
    const key = this.apiKeys.get(cmd.apiKey);
    if (key === undefined || key.revoked) throw new BourseError('NOT_FOUND', [`API key ${cmd.apiKey}`]);
    key.revoked = true;
    return { apiKey: key.apiKey, revoked: true };
  }

  private addAsset(cmd: AddAssetCommand): unknown {
    const ledger = this.context.ledger;
    if (ledger.assets.has(cmd.asset)) reject('INVALID_PARAM_VALUE', ['asset'], `Asset ${cmd.asset} exists.`);
    if (!Number.isInteger(cmd.precision) || cmd.precision < 0 || cmd.precision > ATTO_SCALE) reject('INVALID_PARAM_VALUE', ['precision']);
    const atomsOf = (text: string, param: string): bigint =>
      attoToUnits(decimalOrReject(text, param), cmd.precision) ?? reject('INVALID_PARAM_VALUE', [param]);
    ledger.addAsset({
      asset: cmd.asset,
      precision: cmd.precision,
      kind: cmd.kind,
      fullName: cmd.fullName,
      chains: [...cmd.chains],
      withdrawFeeAtoms: atomsOf(cmd.withdrawFee, 'withdrawFee'),
      minWithdrawAtoms: atomsOf(cmd.minWithdraw, 'minWithdraw'),
      allowDeposit: cmd.allowDeposit,
      allowWithdraw: cmd.allowWithdraw,
    });
    return { asset: cmd.asset, precision: cmd.precision };
  }

  private setFeeRates(cmd: SetFeeRatesCommand): unknown {
    const account = this.context.account(cmd.accountId);
    const maker = cmd.makerFeeRate === undefined ? account.makerFeeRate : parseFeeRate(cmd.makerFeeRate, 'makerFeeRate');
    const taker = cmd.takerFeeRate === undefined ? account.takerFeeRate : parseFeeRate(cmd.takerFeeRate, 'takerFeeRate');
    account.makerFeeRate = maker;
    account.takerFeeRate = taker;
    return { accountId: account.accountId, makerFeeRate: formatFeeRate(maker), takerFeeRate: formatFeeRate(taker) };
  }

  image(): CatalogueImage {
    return { apiKeys: sortedEntries(this.apiKeys).map(([, k]) => ({ ...k, permissions: [...k.permissions], ipWhitelist: [...k.ipWhitelist] })) };
  }

  restore(image: CatalogueImage): void {
    for (const k of image.apiKeys) this.apiKeys.set(k.apiKey, { ...k, permissions: [...k.permissions], ipWhitelist: [...k.ipWhitelist] });
  }
}
