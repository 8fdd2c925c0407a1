import type { Command } from '../../core/types.js';
import { OPERATOR_PREFIX } from '../admin/operator-endpoint.js';
import type { Ban } from './rate-limiter.js';

export interface BanJournalDeps {
  /** The node's writer (`exchange.submit`): the sequencer on a leader or a SQLite server; refused on a follower. */
  submit: (command: Command) => Promise<unknown>;
  /** The leader's BOURSE_NODE_URL while this node follows one; '' when it leads, is alone, or knows no leader. */
  leaderUrl: () => string;
  /** The deployment's operator token, the same on every node. */
  adminToken: string;
  /** How long the leader may take to answer. */
  timeoutMs: number;
}

/**
 * The limiter's `onBan` for a node (docs/spot-api.md "Rate limits"): journals a ban this node's
 * limiter started. The node that writes submits `ipBanned` itself; a follower, whose writer refuses,
 * sends the ban to the leader's O29 with the count its limiter computed, so a repeat changes nothing.
 * Rejects when the ban could not be journaled (no leader reachable, the journal cannot be written).
 */
export function banJournal(deps: BanJournalDeps): (ban: Ban) => Promise<unknown> {
  return async (ban) => {
    const leaderUrl = deps.leaderUrl();
    if (leaderUrl === '') return deps.submit({ type: 'ipBanned', ip: ban.ip, bannedUntil: ban.bannedUntil, banCount: ban.banCount });
    const response = await fetch(new URL(`${OPERATOR_PREFIX}/bans`, leaderUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${deps.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ip: ban.ip, bannedUntil: ban.bannedUntil, banCount: ban.banCount }),
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    const answer = await response.text();
    if (response.status !== 200) throw new Error(`the leader answered the ban of ${ban.ip} with ${response.status}: ${answer.slice(0, 200)}`);
    return answer;
  };
}
