import { isIP } from 'node:net';
import { reject } from '../core/errors.js';
import type { Command, CommandType, IpBanLiftedCommand, IpBannedCommand } from '../core/types.js';
import type { PostingContext } from '../ledger/ledger.js';
import type { CoreModule } from './core-module.js';

/** A ban's count is forgotten this long after the ban ended (docs/spot-api.md "Rate limits"): the next one is the first again. */
export const BAN_MEMORY_MS = 86_400_000;

/** One address's ban as the core holds it: in force while `bannedUntil` is ahead, remembered for BAN_MEMORY_MS after. */
export interface IpBan {
  ip: string;
  /** End of the latest ban, ms since the epoch. */
  bannedUntil: number;
  /** n of "the n-th ban", which sets its length. */
  banCount: number;
}

/** Entries in scan order: the order pruning looks at them. */
export interface IpBansImage {
  entries: IpBan[];
}

/** What O14 answers once committed. */
export interface IpBanLiftedResult {
  ip: string;
  /** Whether the journal held a ban in force at the command's stamp. */
  lifted: boolean;
}

/** What a node's rate limiter reads of the journaled bans. */
export interface IpBanReads {
  /** The entry of `ip`, in force or ended and not yet forgotten. */
  entry(ip: string): Readonly<IpBan> | undefined;
  entries(): Iterable<Readonly<IpBan>>;
}

const IP_BAN_COMMANDS = ['ipBanned', 'ipBanLifted'] as const satisfies readonly CommandType[];
type IpBanCommand = IpBannedCommand | IpBanLiftedCommand;

/**
 * Entries looked at per accepted command, each dropped when forgotten or else moved to the back:
 * more than the one entry a command can add, so forgotten ones never pile up faster than they go.
 */
const PRUNE_PER_COMMAND = 4;
/** The URL parser's compressed form of an IPv4-mapped IPv6 address (`::ffff:7f00:1`). */
const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The one spelling a ban is kept under, from any spelling of an address: IPv4 dotted, an
 * IPv4-mapped IPv6 address as its IPv4 (what a dual-stack socket reports for an IPv4 client, which
 * the limiter counts as IPv4), other IPv6 in its compressed lower-case form (`0:0:0:0:0:0:0:1` is
 * `::1`); undefined for anything that is no address.
 */
export function banAddress(text: string): string | undefined {
  const version = isIP(text);
  if (version === 4) return text;
  if (version === 0) return undefined;
  // A zone id (`fe80::1%eth0`) is kept as sent: the URL parser, which compresses, refuses one.
  if (text.includes('%')) return text;
  const compressed = new URL(`http://[${text}]`).hostname.slice(1, -1);
  const mapped = MAPPED_IPV4.exec(compressed);
  if (mapped === null) return compressed;
  const high = Number.parseInt(mapped[1], 16);
  const low = Number.parseInt(mapped[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether a ban that ended at `bannedUntil` is forgotten at `at` (its count no longer lengthens the next). */
export function banForgotten(bannedUntil: number, at: number): boolean {
  return at - bannedUntil >= BAN_MEMORY_MS;
}

/**
 * The IP bans of docs/spot-api.md "Rate limits" as journaled state, so that every node of a
 * deployment refuses a banned address and a restart keeps the ban. Strikes and counters stay in
 * each node's limiter: only a ban, once a limiter starts it (or the operator sets one, O29), is a
 * command. Two bans of one address merge member by member, the later end and the higher count:
 * the same bans in any order (two nodes banning at once, a retried submission arriving after a newer
 * ban) give the same entry, and a ban in force is never shortened but by the operator's lift.
 * An entry is forgotten BAN_MEMORY_MS after its ban ended; forgotten entries are pruned by later
 * accepted commands of this module, a bounded number each, so a replay prunes exactly what the
 * original run pruned.
 */
export class IpBanModule implements CoreModule<IpBansImage>, IpBanReads {
  readonly name = 'ipBans';
  readonly commandTypes = IP_BAN_COMMANDS;
  /** By address, in scan order. */
  private readonly bans = new Map<string, IpBan>();

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as IpBanCommand;
    switch (cmd.type) {
      case 'ipBanned':
        return this.banned(cmd, ctx.ts);
      case 'ipBanLifted':
        return this.lifted(cmd, ctx.ts);
    }
  }

  /** Entries held, in force or ended and not yet pruned. */
  get size(): number {
    return this.bans.size;
  }

  entry(ip: string): Readonly<IpBan> | undefined {
    return this.bans.get(ip);
  }

  entries(): Iterable<Readonly<IpBan>> {
    return this.bans.values();
  }

  private banned(cmd: IpBannedCommand, ts: number): IpBan {
    checkAddress(cmd.ip);
    if (!Number.isSafeInteger(cmd.bannedUntil) || cmd.bannedUntil < 1) reject('INVALID_PARAM_VALUE', ['bannedUntil']);
    // A ban that would be forgotten at once says nothing: a sender's clock or a unit is wrong.
    if (banForgotten(cmd.bannedUntil, ts)) reject('INVALID_PARAM_VALUE', ['bannedUntil']);
    if (!Number.isSafeInteger(cmd.banCount) || cmd.banCount < 1) reject('INVALID_PARAM_VALUE', ['banCount']);
    this.prune(ts);
    const held = this.bans.get(cmd.ip);
    if (held === undefined || banForgotten(held.bannedUntil, ts)) {
      const ban = { ip: cmd.ip, bannedUntil: cmd.bannedUntil, banCount: cmd.banCount };
      // A forgotten entry's place in the scan order goes with it.
      this.bans.delete(cmd.ip);
      this.bans.set(cmd.ip, ban);
      return { ...ban };
    }
    held.bannedUntil = Math.max(held.bannedUntil, cmd.bannedUntil);
    held.banCount = Math.max(held.banCount, cmd.banCount);
    return { ...held };
  }

  private lifted(cmd: IpBanLiftedCommand, ts: number): IpBanLiftedResult {
    checkAddress(cmd.ip);
    this.prune(ts);
    const held = this.bans.get(cmd.ip);
    // As the limiter's lift: the ban ends and its count is forgotten, so the next ban is the first again.
    this.bans.delete(cmd.ip);
    return { ip: cmd.ip, lifted: held !== undefined && held.bannedUntil > ts };
  }

  /** Looks at up to PRUNE_PER_COMMAND entries at the front of the scan order: forgotten ones go, the others to the back. */
  private prune(ts: number): void {
    const looks = Math.min(PRUNE_PER_COMMAND, this.bans.size);
    for (let looked = 0; looked < looks; looked++) {
      const first = this.bans.values().next().value as IpBan;
      this.bans.delete(first.ip);
      if (!banForgotten(first.bannedUntil, ts)) this.bans.set(first.ip, first);
    }
  }

  image(): IpBansImage {
    return { entries: [...this.bans.values()].map((ban) => ({ ...ban })) };
  }

  restore(image: IpBansImage): void {
    for (const ban of image.entries) {
      const wellFormed = banAddress(ban.ip) === ban.ip && Number.isSafeInteger(ban.bannedUntil) && ban.bannedUntil >= 1 && Number.isSafeInteger(ban.banCount) && ban.banCount >= 1;
      if (!wellFormed || this.bans.has(ban.ip)) throw new Error(`snapshot IP ban entry is malformed or repeated: ${JSON.stringify(ban)}`);
      this.bans.set(ban.ip, { ip: ban.ip, bannedUntil: ban.bannedUntil, banCount: ban.banCount });
    }
  }
}

/** The address as the limiter keys it (banAddress's spelling), or -1130 naming `ip`. */
function checkAddress(ip: unknown): void {
  if (typeof ip !== 'string' || banAddress(ip) !== ip) reject('INVALID_PARAM_VALUE', ['ip']);
}
