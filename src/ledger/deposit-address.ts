import { createHash } from 'node:crypto';

/** A22 `tokenType` by chain. */
export const TOKEN_TYPES: Readonly<Record<string, string>> = {
  TRC20: 'TRX_TOKEN',
  ERC20: 'ERC20_TOKEN',
  BEP20: 'BEP20_TOKEN',
  POL: 'POL_TOKEN',
  BTC: 'BTC',
  ETH: 'ETH',
};

/**
 * A22's address: `bourse:<lower-case chain>:` + the first 40 hex digits of
 * SHA-256(`<accountId>:<tokenId>:<chainType>`). Stable, and deliberately no real chain address.
 */
export function depositAddress(accountId: number, tokenId: string, chainType: string): string {
  const digest = createHash('sha256').update(`${accountId}:${tokenId}:${chainType}`).digest('hex');
  return `bourse:${chainType.toLowerCase()}:${digest.slice(0, 40)}`;
}
