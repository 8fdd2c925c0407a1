import { createHash } from 'node:crypto';
import { ok } from './answers.js';
import type { SpotClient } from './clients.js';

export interface Balance {
  asset: string;
  total: string;
  free: string;
  locked: string;
}
/** An A31 balance flow row. */
export interface Flow {
  id: string;
  accountId: string;
  token: string;
  tokenId: string;
  tokenName: string;
  flowTypeValue: number;
  flowType: string;
  flowName: string;
  change: string;
  total: string;
  created: string;
}

/** A19 balances of the key's account. */
export async function balances(client: SpotClient): Promise<Balance[]> {
  return ok<{ balances: Balance[] }>(await client.signed('GET', '/openapi/v1/account')).balances;
}

function pick(all: readonly Balance[], asset: string): Balance {
  const found = all.find((b) => b.asset === asset);
  if (found === undefined) throw new Error(`no ${asset} in ${JSON.stringify(all)}`);
  return found;
}

/** One asset of A19; an asset missing from A19 fails. */
export async function balance(client: SpotClient, asset: string): Promise<Balance> {
  return pick(await balances(client), asset);
}

/** One asset of A19 as `total/free/locked`. */
export async function totalFreeLocked(client: SpotClient, asset: string): Promise<string> {
  const b = await balance(client, asset);
  return `${b.total}/${b.free}/${b.locked}`;
}

/** `free/locked` of each asset named, by asset, from one A19 read. */
export async function holdings(client: SpotClient, assets: readonly string[]): Promise<Record<string, string>> {
  const all = await balances(client);
  return Object.fromEntries(
    assets.map((asset) => {
      const b = pick(all, asset);
      return [asset, `${b.free}/${b.locked}`];
    }),
  );
}

/** A31 rows of the key's account (or the one `params` names). */
export async function flows(client: SpotClient, params: Record<string, string | number> = {}): Promise<Flow[]> {
  return ok<Flow[]>(await client.signed('GET', '/openapi/v1/balance_flow', params));
}

/** A22's address of an account, computed independently of the server (docs/spot-api.md "Deposits and withdrawals"). */
export function depositAddress(accountId: string, tokenId: string, chainType: string): string {
  const digest = createHash('sha256').update(`${accountId}:${tokenId}:${chainType}`).digest('hex');
  return `bourse:${chainType.toLowerCase()}:${digest.slice(0, 40)}`;
}
