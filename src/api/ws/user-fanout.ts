import type { BalanceEvent, CoreEvent, Permission } from '../../core/types.js';
import type { UserConnection, UserConnections } from './user-connections.js';
import type { ExecutionReport, TicketInfo } from './user-frame-types.js';
import { executionReport, outboundAccountInfo, ticketInfo } from './user-frames.js';

/** The permissions of an API key, read at each push (a key's `T` and `W` follow its changes); undefined for a key that is gone. */
export type PermissionsOf = (apiKey: string) => readonly Permission[] | undefined;

interface AccountStep {
  reports: ExecutionReport[];
  tickets: TicketInfo[];
  balance: BalanceEvent | undefined;
}

/**
 * What the user stream pushes (docs/websocket.md "User data stream" "Events"): after each committed
 * engine step (the events of one seq) that touched a watched account, one JSON array to each of the
 * account's sockets: its `executionReport`s, then its `ticketInfo`s, then its `outboundAccountInfo`.
 */
export class UserFanout {
  constructor(
    private readonly connections: UserConnections,
    private readonly permissionsOf: PermissionsOf,
    private readonly send: (connection: UserConnection, text: string) => void,
  ) {}

  /** The events of a committed batch, in engine order. */
  push(events: readonly CoreEvent[]): void {
    let start = 0;
    while (start < events.length && !this.connections.isEmpty) {
      const seq = events[start].seq;
      let stop = start + 1;
      while (stop < events.length && events[stop].seq === seq) stop++;
      this.pushStep(events, start, stop);
      start = stop;
    }
  }

  private pushStep(events: readonly CoreEvent[], start: number, stop: number): void {
    const steps = new Map<number, AccountStep>();
    for (let i = start; i < stop; i++) {
      const event = events[i];
      if (!this.connections.watches(event.accountId)) continue;
      let step = steps.get(event.accountId);
      if (step === undefined) {
        step = { reports: [], tickets: [], balance: undefined };
        steps.set(event.accountId, step);
      }
      if (event.kind === 'balance') {
        step.balance = event;
      } else {
        step.reports.push(executionReport(event));
        if (event.fill !== undefined) step.tickets.push(ticketInfo(event));
      }
    }
    for (const [accountId, step] of steps) {
      // T and W depend on the key behind each listenKey: one text per distinct pair.
      const texts = new Map<string, string>();
      for (const connection of this.connections.ofAccount(accountId)) {
        const permissions = this.permissionsOf(connection.binding.apiKey);
        const canTrade = permissions?.includes('TRADE') ?? false;
        const canWithdraw = permissions?.includes('WITHDRAW') ?? false;
        const variant = `${canTrade}:${canWithdraw}`;
        let text = texts.get(variant);
        if (text === undefined) {
          const frame: object[] = [...step.reports, ...step.tickets];
          if (step.balance !== undefined) frame.push(outboundAccountInfo(step.balance, canTrade, canWithdraw));
          text = JSON.stringify(frame);
          texts.set(variant, text);
        }
        this.send(connection, text);
      }
    }
  }
}
