import { attoToUnits, formatAtto, formatUnits, parseSignedDecimal } from '../../src/core/decimal.js';
import { FLOW_TYPES } from '../../src/core/types.js';
import { AdminClient, SpotClient, type HttpAnswer } from './clients.js';
import { isErrorBody } from './order-load.js';
import { createFundedTrader, type FundedTrader } from './trading-setup.js';

/** Transfer n moves n × 10^-6 USDT: its amount names it, so the flow it left says which transfer it was. */
const AMOUNT_DECIMALS = 6;
const ASSET = 'USDT';
/** A31 answers at most 100 rows a page. */
const FLOW_PAGE = 100;
const RECV_WINDOW_MS = '60000';

/** A user whose main account moves USDT to its first sub-account. */
export interface TransferAccount {
  trader: FundedTrader;
  subAccountId: string;
  subAccountIndex: number;
}

/** Made through the operator API: the user, its key, `usdt` on the main account and an empty sub-account. */
export async function createTransferAccount(url: string, adminToken: string, name: string, usdt: string): Promise<TransferAccount> {
  const trader = await createFundedTrader(url, adminToken, name, [[ASSET, usdt]]);
  const answer = await new AdminClient(url, adminToken).send('POST', `/users/${trader.userId}/sub-accounts`, { name: 'moves' });
  if (answer.status !== 200) throw new Error(`POST /admin/v1/users/${trader.userId}/sub-accounts answered ${answer.status} ${answer.text}`);
  const sub = answer.body as { accountId: string; accountIndex: number };
  return { trader, subAccountId: sub.accountId, subAccountIndex: sub.accountIndex };
}

/**
 * Every transfer sent, by number: `acknowledged` ones (answered 200) must have been applied exactly
 * once; the others (refused, or cut off or answered 503 around a takeover, whose outcome the client
 * cannot know) at most once.
 */
export class TransferLog {
  readonly sent = new Map<number, 'acknowledged' | 'unknown'>();
  private last = 0;

  nextNumber(): number {
    this.last++;
    this.sent.set(this.last, 'unknown');
    return this.last;
  }

  get acknowledged(): number {
    let n = 0;
    for (const state of this.sent.values()) if (state === 'acknowledged') n++;
    return n;
  }
}

/** A30: transfer `n` of the log, from the main account to the sub-account. */
function sendTransfer(client: SpotClient, account: TransferAccount, n: number): Promise<HttpAnswer> {
  return client.signed('POST', '/openapi/v1/transfer', {
    fromAccountType: 1,
    fromAccountIndex: 0,
    toAccountType: 1,
    toAccountIndex: account.subAccountIndex,
    tokenId: ASSET,
    amount: formatUnits(BigInt(n), AMOUNT_DECIMALS),
    recvWindow: RECV_WINDOW_MS,
  });
}

/** One logged transfer through the node at `url` (a write any test can use as a probe); its answer. */
export async function transferOnce(url: string, account: TransferAccount, log: TransferLog): Promise<HttpAnswer> {
  const n = log.nextNumber();
  const answer = await sendTransfer(new SpotClient(url, account.trader.apiKey, account.trader.secretKey), account, n);
  if (answer.status === 200) log.sent.set(n, 'acknowledged');
  return answer;
}

export interface TransferLoadOutcome {
  requests: number;
  acknowledged: number;
  connectionErrors: number;
  /** Non-200 answers by "<http status> <code>". */
  errorAnswers: Map<string, number>;
  /** Answers that are neither 200 nor a {code,msg} error. */
  malformed: string[];
}

export interface TransferLoad {
  /** Loops send no new transfer after this; those in flight finish. */
  stop(): void;
  done: Promise<TransferLoadOutcome>;
}

/**
 * Concurrent A30 transfers (main account → sub-account, no client id: A30 has no duplicate check,
 * so a transfer applied twice leaves two flows) against `url`. A loop ends at its first connection
 * error (the node is gone) or when stopped.
 */
export function startTransferLoad(options: { url: string; account: TransferAccount; loops: number; log: TransferLog }): TransferLoad {
  const outcome: TransferLoadOutcome = { requests: 0, acknowledged: 0, connectionErrors: 0, errorAnswers: new Map(), malformed: [] };
  let stopped = false;
  const loop = async (): Promise<void> => {
    while (!stopped) {
      outcome.requests++;
      let answer: HttpAnswer;
      try {
        answer = await transferOnce(options.url, options.account, options.log);
      } catch {
        outcome.connectionErrors++;
        return;
      }
      if (answer.status === 200) {
        outcome.acknowledged++;
      } else if (isErrorBody(answer.body)) {
        const key = `${answer.status} ${answer.body.code}`;
        outcome.errorAnswers.set(key, (outcome.errorAnswers.get(key) ?? 0) + 1);
      } else {
        outcome.malformed.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.loops }, loop)).then(() => outcome);
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** The transfer number a flow of `change` (a decimal string) records, or undefined if no transfer moves that amount. */
function transferNumber(change: string): number | undefined {
  const atto = parseSignedDecimal(change);
  const units = atto === null ? null : attoToUnits(atto, AMOUNT_DECIMALS);
  return units === null || units <= 0n ? undefined : Number(units);
}

/**
 * The transfers as the node at `url` stored them (the sub-account's A31 rows), against the log:
 * every acknowledged transfer applied once, none twice, no flow that no transfer sent, and the
 * sub-account's balance (O24) the sum of its flows. Returns one line per problem.
 */
export async function findTransferProblems(url: string, adminToken: string, account: TransferAccount, log: TransferLog): Promise<string[]> {
  const client = new SpotClient(url, account.trader.apiKey, account.trader.secretKey);
  const applied = new Map<number, number>();
  const problems: string[] = [];
  let flowSum = 0n;
  for (let below: string | undefined; ; ) {
    const answer = await client.signed('GET', '/openapi/v1/balance_flow', {
      accountType: 1,
      accountIndex: account.subAccountIndex,
      tokenId: ASSET,
      flowType: FLOW_TYPES.USER_ACCOUNT_TRANSFER,
      limit: FLOW_PAGE,
      ...(below === undefined ? {} : { fromFlowId: below }),
    });
    if (answer.status !== 200) throw new Error(`A31 on ${url} answered ${answer.status} ${answer.text}`);
    const page = answer.body as { id: string; change: string }[];
    for (const flow of page) {
      const n = transferNumber(flow.change);
      if (n === undefined || !log.sent.has(n)) problems.push(`flow ${flow.id} of ${flow.change} ${ASSET} is no transfer that was sent`);
      else applied.set(n, (applied.get(n) ?? 0) + 1);
      flowSum += parseSignedDecimal(flow.change) ?? 0n;
    }
    if (page.length < FLOW_PAGE) break;
    // The newest 100 below `fromFlowId`, listed oldest first: the next page is below the oldest.
    below = page.reduce((min, flow) => (BigInt(flow.id) < BigInt(min) ? flow.id : min), page[0].id);
  }
  for (const [n, state] of log.sent) {
    const times = applied.get(n) ?? 0;
    if (times > 1) problems.push(`transfer ${n} (${state}) was applied ${times} times`);
    else if (state === 'acknowledged' && times === 0) problems.push(`acknowledged transfer ${n} is missing`);
  }
  const balances = await new AdminClient(url, adminToken).send('GET', `/users/${account.trader.userId}/balances`);
  if (balances.status !== 200) throw new Error(`O24 on ${url} answered ${balances.status} ${balances.text}`);
  const row = (balances.body as { accountId: string; asset: string; total: string }[]).find((b) => b.accountId === account.subAccountId && b.asset === ASSET);
  const total = parseSignedDecimal(row?.total ?? '0') ?? 0n;
  if (total !== flowSum) problems.push(`the sub-account holds ${row?.total ?? '0'} ${ASSET}, its transfer flows add up to ${formatAtto(flowSum)}`);
  return problems;
}
