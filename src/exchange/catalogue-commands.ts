import { ATTO_SCALE, attoToUnits, formatUnits } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import type {
  AddAssetCommand,
  CreateApiKeyCommand,
  CreateSubAccountCommand,
  CreateUserCommand,
  RevokeApiKeyCommand,
  SetFeeRatesCommand,
} from '../core/types.js';
import { decimalOrReject } from './amounts.js';
import { FEE_RATE_ONE, FEE_RATE_SCALE, type User } from '../ledger/account.js';
import type { PostingContext } from '../ledger/ledger.js';
import type { ExchangeCore } from './exchange-core.js';

export type CatalogueCommand =
  | CreateUserCommand
  | CreateSubAccountCommand
  | CreateApiKeyCommand
  | RevokeApiKeyCommand
  | AddAssetCommand
  | SetFeeRatesCommand;

const MAX_FEE_RATE = FEE_RATE_ONE / 10n;

export function applyCatalogueCommand(core: ExchangeCore, command: CatalogueCommand, ctx: PostingContext): unknown {
  switch (command.type) {
    case 'createUser': {
      if (command.uniqueEmail === true) refuseTakenEmail(core, command.email);
      const user = core.ledger.createUser(command.email, command.userType);
      return { userId: user.userId, accountId: user.accountIds[0] };
    }
    case 'createSubAccount': {
      const user = userOf(core, command.userId);
      const account = core.ledger.createAccount(user, command.name || `sub${user.accountIds.length}`);
      return { accountId: account.accountId, accountIndex: account.accountIndex };
    }
    case 'createApiKey':
      return createApiKey(core, command, ctx);
    case 'revokeApiKey': {
      const key = core.catalogue.apiKeys.get(command.apiKey);
      if (key === undefined || key.revoked) throw new BourseError('NOT_FOUND', [`API key ${command.apiKey}`]);
      key.revoked = true;
      return { apiKey: key.apiKey, revoked: true };
    }
    case 'addAsset':
      return addAsset(core, command);
    case 'setFeeRates':
      return setFeeRates(core, command);
  }
}

/**
 * One user per e-mail: a non-empty e-mail already a user's (case-insensitive, system users
 * aside) is refused. A scan of the users, so nothing beyond the users themselves is state.
 */
function refuseTakenEmail(core: ExchangeCore, email: string): void {
  const wanted = email.trim().toLowerCase();
  if (wanted === '') return;
  for (const user of core.ledger.users.values()) {
    if (user.userType !== 'system' && user.email.trim().toLowerCase() === wanted) reject('INVALID_PARAM_VALUE', ['email'], `A user with the e-mail ${email.trim()} exists already (user ${user.userId}).`);
  }
}

function userOf(core: ExchangeCore, userId: number): User {
  const user = core.ledger.users.get(userId);
  if (user === undefined || user.userType === 'system') throw new BourseError('NOT_FOUND', [`user ${userId}`]);
  return user;
}

function createApiKey(core: ExchangeCore, cmd: CreateApiKeyCommand, ctx: PostingContext): unknown {
  // The desk is a system user the operator may trade for (docs/merchant-payments.md: rebalancing through area A).
  const deskUserId = core.ledger.accounts.get(core.payments.state.deskAccountId)?.userId;
  const user = cmd.userId === deskUserId ? core.ledger.users.get(cmd.userId) ?? userOf(core, cmd.userId) : userOf(core, cmd.userId);
  const accountId = user.accountIds[cmd.accountIndex];
  if (accountId === undefined) throw new BourseError('NOT_FOUND', [`account index ${cmd.accountIndex} of user ${cmd.userId}`]);
  if (core.catalogue.apiKeys.has(cmd.apiKey)) throw new Error('API key collision');
  core.catalogue.apiKeys.set(cmd.apiKey, {
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

function addAsset(core: ExchangeCore, cmd: AddAssetCommand): unknown {
  if (core.ledger.assets.has(cmd.asset)) reject('INVALID_PARAM_VALUE', ['asset'], `Asset ${cmd.asset} exists.`);
  if (!Number.isInteger(cmd.precision) || cmd.precision < 0 || cmd.precision > ATTO_SCALE) reject('INVALID_PARAM_VALUE', ['precision']);
  const atomsOf = (text: string, param: string): bigint =>
    attoToUnits(decimalOrReject(text, param), cmd.precision) ?? reject('INVALID_PARAM_VALUE', [param]);
  core.ledger.addAsset({
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

function feeRate(text: string, param: string): bigint {
  const rate = attoToUnits(decimalOrReject(text, param), FEE_RATE_SCALE);
  if (rate === null || rate > MAX_FEE_RATE) reject('INVALID_PARAM_VALUE', [param]);
  return rate;
}

function setFeeRates(core: ExchangeCore, cmd: SetFeeRatesCommand): unknown {
  const account = core.account(cmd.accountId);
  const maker = cmd.makerFeeRate === undefined ? account.makerFeeRate : feeRate(cmd.makerFeeRate, 'makerFeeRate');
  const taker = cmd.takerFeeRate === undefined ? account.takerFeeRate : feeRate(cmd.takerFeeRate, 'takerFeeRate');
  account.makerFeeRate = maker;
  account.takerFeeRate = taker;
  return {
    accountId: account.accountId,
    makerFeeRate: formatUnits(maker, FEE_RATE_SCALE),
    takerFeeRate: formatUnits(taker, FEE_RATE_SCALE),
  };
}
