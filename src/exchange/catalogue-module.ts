import type { Command, CommandType, Permission } from '../core/types.js';
import type { PostingContext } from '../ledger/ledger.js';
import { applyCatalogueCommand, type CatalogueCommand } from './catalogue-commands.js';
import { sortedEntries, type CoreModule } from './core-module.js';
import type { ExchangeCore } from './exchange-core.js';

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

const CATALOGUE_COMMANDS = ['createUser', 'createSubAccount', 'createApiKey', 'revokeApiKey', 'addAsset', 'setFeeRates'] as const satisfies readonly CommandType[];

/** Users, their accounts and API keys, assets and fee rates: what every other module builds on. */
export class CatalogueModule implements CoreModule<CatalogueImage> {
  readonly name = 'catalogue';
  readonly commandTypes = CATALOGUE_COMMANDS;
  readonly apiKeys = new Map<string, ApiKeyRecord>();

  constructor(private readonly core: ExchangeCore) {}

  apply(command: Command, ctx: PostingContext): unknown {
    return applyCatalogueCommand(this.core, command as CatalogueCommand, ctx);
  }

  image(): CatalogueImage {
    return { apiKeys: sortedEntries(this.apiKeys).map(([, k]) => ({ ...k, permissions: [...k.permissions], ipWhitelist: [...k.ipWhitelist] })) };
  }

  restore(image: CatalogueImage): void {
    for (const k of image.apiKeys) this.apiKeys.set(k.apiKey, { ...k, permissions: [...k.permissions], ipWhitelist: [...k.ipWhitelist] });
  }
}
