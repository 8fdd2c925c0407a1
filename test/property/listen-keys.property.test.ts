/**
 * Property: whatever story runs against the listenKeys of the core (opens by several accounts and
 * keys, some refused; keepalives and closes of live, dead, unknown and other accounts' listenKeys;
 * API keys revoked and made; the TTL changed; the clock moved by a millisecond to hours), then
 *
 * - after every step the core answers as the rules of docs/spot-api.md "User data streams" say,
 *   checked against a plain model of them: the same commands accepted and refused, the same
 *   evictions, and every listenKey ever named live exactly when the model says, from the last
 *   stamp on (at its expiry to the millisecond);
 *   the core holds at most 10 entries per account (pruning bounds its memory);
 * - after every run a replay of the journal, and a snapshot taken mid-run plus the journal after
 *   it, reach the same state hash, and these cores answer every lookup as the original does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BourseError } from '../../src/core/errors.js';
import type { Command } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { ListenKeyModule, type OpenListenKeyResult } from '../../src/exchange/listen-key-module.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import { CoreHarness, replay } from '../support/core-harness.js';

type Op =
  | { kind: 'open'; account: number; key: number; foreign: boolean }
  | { kind: 'keepalive'; pick: number; stranger: boolean }
  | { kind: 'close'; pick: number; stranger: boolean }
  | { kind: 'revoke'; key: number }
  | { kind: 'newKey'; account: number }
  | { kind: 'ttl'; ms: number }
  | { kind: 'clock'; ms: number };

/** Few accounts, so that runs often reach an account's 10. */
const ACCOUNTS = 2;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ kind: fc.constant('open' as const), account: fc.nat({ max: ACCOUNTS - 1 }), key: fc.nat(), foreign: fc.nat({ max: 9 }).map((n) => n === 0) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('keepalive' as const), pick: fc.nat(), stranger: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), pick: fc.nat(), stranger: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), key: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('newKey' as const), account: fc.nat({ max: ACCOUNTS - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ttl' as const), ms: fc.constantFrom(50, 1_000, 60_000, 3_600_000) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.constantFrom(1, 20, 400, 5_000, 3_600_000) }) },
);

interface ModelEntry {
  accountId: number;
  apiKey: string;
  expiresAt: number;
  openedSeq: number;
}

/** The rules as the docs state them, with no pruning: dead entries simply stay. */
class Model {
  readonly entries = new Map<string, ModelEntry>();
  readonly revoked = new Set<string>();
  ttlMs = 3_600_000;

  live(listenKey: string, at: number): boolean {
    const entry = this.entries.get(listenKey);
    return entry !== undefined && entry.expiresAt > at && !this.revoked.has(entry.apiKey);
  }

  /** What A26 does; undefined when refused (the key is revoked or another account's). */
  open(listenKey: string, accountId: number, apiKey: string, keyAccount: number, seq: number, ts: number): { evicted?: string } | undefined {
    if (this.revoked.has(apiKey) || keyAccount !== accountId) return undefined;
    const live = [...this.entries].filter(([k, e]) => e.accountId === accountId && this.live(k, ts)).sort((a, b) => a[1].openedSeq - b[1].openedSeq);
    const evicted = live.length >= ListenKeyModule.MAX_PER_ACCOUNT ? live[0][0] : undefined;
    if (evicted !== undefined) this.entries.delete(evicted);
    this.entries.set(listenKey, { accountId, apiKey, expiresAt: ts + this.ttlMs, openedSeq: seq });
    return evicted === undefined ? {} : { evicted };
  }

  /** What A27 (or A28 when `close`) does; false when refused. */
  touch(listenKey: string, accountId: number, ts: number, close: boolean): boolean {
    const entry = this.entries.get(listenKey);
    if (entry === undefined || entry.accountId !== accountId || !this.live(listenKey, ts)) return false;
    if (close) this.entries.delete(listenKey);
    else entry.expiresAt = ts + this.ttlMs;
    return true;
  }
}

const name = (n: number): string => `${n}`.padStart(64, 'k');

function liveIn(core: ExchangeCore, listenKey: string, at: number): boolean {
  const entry = core.listenKeys.entry(listenKey);
  return entry !== undefined && core.listenKeys.isLive(entry, at);
}

/** Runs the story; answers the harness, the model, every name used and the snapshot taken at `cut`. */
function run(ops: Op[], cut: number): { h: CoreHarness; model: Model; names: string[]; snapshot: { text: string; accepted: number } } {
  const h = new CoreHarness();
  const model = new Model();
  const users: number[] = [];
  const accounts: number[] = [];
  const keys: { apiKey: string; accountId: number }[] = [];
  const newKey = (i: number): void => {
    const apiKey = `${keys.length + 1}`.padStart(64, 'p');
    h.ok({ type: 'createApiKey', userId: users[i], accountIndex: 0, apiKey, secretSealed: 's', permissions: ['USER_STREAM'], ipWhitelist: [], label: '' });
    keys.push({ apiKey, accountId: accounts[i] });
  };
  for (let i = 0; i < ACCOUNTS; i++) {
    const user = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: `u${i}@example.com`, userType: 'user' });
    users.push(user.userId);
    accounts.push(user.accountId);
  }
  for (let i = 0; i < ACCOUNTS; i++) newKey(i);
  const names: string[] = [];
  let snapshot = { text: serializeCore(h.core), accepted: h.accepted.length };

  const expectAnswer = (command: Command, accepted: boolean): unknown => {
    const result = h.run(command);
    const refused = result instanceof BourseError;
    expect({ command: command.type, accepted: !refused }).toEqual({ command: command.type, accepted });
    if (refused) expect([-1125, -2015]).toContain(result.code);
    return result;
  };

  ops.forEach((op, step) => {
    if (step === cut) snapshot = { text: serializeCore(h.core), accepted: h.accepted.length };
    const ts = h.now;
    const seq = h.core.lastSeq + 1;
    switch (op.kind) {
      case 'open': {
        // Mostly one of the account's own keys; now and then another account's, which is refused.
        const own = keys.filter((k) => k.accountId === accounts[op.account]);
        const key = op.foreign || own.length === 0 ? keys[op.key % keys.length] : own[op.key % own.length];
        const listenKey = name(names.length + 1);
        names.push(listenKey);
        const expected = model.open(listenKey, accounts[op.account], key.apiKey, key.accountId, seq, ts);
        const result = expectAnswer({ type: 'openListenKey', listenKey, accountId: accounts[op.account], apiKey: key.apiKey }, expected !== undefined);
        if (expected !== undefined) expect((result as OpenListenKeyResult).evicted).toBe(expected.evicted);
        break;
      }
      case 'keepalive':
      case 'close': {
        if (names.length === 0) break;
        const listenKey = names[op.pick % names.length];
        const owner = model.entries.get(listenKey)?.accountId ?? accounts[0];
        const accountId = op.stranger ? accounts[(accounts.indexOf(owner) + 1) % ACCOUNTS] : owner;
        const expected = model.touch(listenKey, accountId, ts, op.kind === 'close');
        expectAnswer({ type: op.kind === 'close' ? 'closeListenKey' : 'keepaliveListenKey', listenKey, accountId }, expected);
        break;
      }
      case 'revoke': {
        const key = keys[op.key % keys.length];
        if (model.revoked.has(key.apiKey)) break;
        h.ok({ type: 'revokeApiKey', apiKey: key.apiKey });
        model.revoked.add(key.apiKey);
        break;
      }
      case 'newKey':
        newKey(op.account);
        break;
      case 'ttl':
        h.ok({ type: 'setTradingConfig', listenKeyTtlMs: op.ms });
        model.ttlMs = op.ms;
        break;
      case 'clock':
        h.now += op.ms;
        break;
    }
    for (const listenKey of names) {
      const expiresAt = model.entries.get(listenKey)?.expiresAt ?? h.now;
      // Not before the last stamp: the core has pruned what was dead then, the model never prunes.
      for (const at of [h.now, expiresAt - 1, expiresAt, h.now + 3_600_000].filter((time) => time >= h.core.lastTs)) {
        expect({ listenKey, at, live: liveIn(h.core, listenKey, at) }).toEqual({ listenKey, at, live: model.live(listenKey, at) });
      }
    }
    expect(h.core.listenKeys.size).toBeLessThanOrEqual(ListenKeyModule.MAX_PER_ACCOUNT * ACCOUNTS);
  });
  return { h, model, names, snapshot };
}

describe('property: listenKeys are deterministic state of the core', () => {
  it('when any story of opens, keepalives, closes, revocations, TTL changes and time runs, then the core follows the rules, and replay and snapshot reach the same state and answers', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 150 }), fc.nat(), (ops, cutPick) => {
        const { h, names, snapshot } = run(ops, cutPick % ops.length);
        const replayed = replay(h.accepted);
        const continued = new CoreHarness(restoreCore(snapshot.text));
        for (const stamped of h.accepted.slice(snapshot.accepted)) {
          continued.now = stamped.ts;
          continued.ok(stamped.command);
        }
        const hash = stateHash(h.core);
        expect(stateHash(replayed)).toBe(hash);
        expect(stateHash(continued.core)).toBe(hash);
        for (const listenKey of names) {
          for (const at of [h.now, h.now + 59_000, h.now + 3_599_000]) {
            const expected = liveIn(h.core, listenKey, at);
            expect(liveIn(replayed, listenKey, at)).toBe(expected);
            expect(liveIn(continued.core, listenKey, at)).toBe(expected);
            expect(replayed.listenKeys.entry(listenKey)).toEqual(h.core.listenKeys.entry(listenKey));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
