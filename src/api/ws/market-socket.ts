import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import type { SymbolState } from '../../exchange/spot-module.js';
import type { BacklogWatch } from './backlog-watch.js';
import { textOf } from './client-text.js';
import { pongText } from './heartbeat.js';
import { errorFrame } from './market-errors.js';
import type { MarketFanout } from './market-fanout.js';
import type { MarketProtocol } from './market-protocols.js';
import { readClientMessage } from './market-request.js';
import { SocketSubscriptions, type FrameSink } from './market-subscriptions.js';
import type { WriteRound } from './market-write-round.js';
import { MessageWindow } from './message-window.js';
import type { StreamLogger } from './upgrade-router.js';

/** Client messages a socket may send in `MESSAGE_WINDOW_MS` before it is closed (1008). */
export const MAX_CLIENT_MESSAGES = 50;
export const MESSAGE_WINDOW_MS = 10_000;
/** Bytes a socket's client has not read yet beyond this mean a reader too slow to follow: it is cut off (1008). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface MarketSocketContext {
  fanout: MarketFanout;
  lookup: (symbol: string) => SymbolState | undefined;
  clock: () => number;
  /** Without a client message for this long, a v1 socket closes (1000, `idle`). */
  idleMs: number;
  logger: StreamLogger;
  /** Every frame goes through it: it bounds what the client has not read (MAX_BUFFERED_BYTES unless a test sets another). */
  backlog: BacklogWatch;
  /** A publish round's frames to this socket go to the kernel in one write. */
  writeRound: WriteRound;
}

/**
 * Serves one market socket of either protocol (docs/websocket.md "Market stream", "v2 market
 * stream") until it closes, then drops its subscriptions and calls `onClosed` once: requests, their
 * acks (v2) and errors, pings, the message limit and the idle timeout (v1). `socket` is the
 * connection `ws` writes to.
 */
export function serveMarketSocket(ws: WebSocket, socket: Duplex, ctx: MarketSocketContext, protocol: MarketProtocol, onClosed: () => void): void {
  const own = new SocketSubscriptions();
  const window = new MessageWindow(MAX_CLIENT_MESSAGES, MESSAGE_WINDOW_MS);
  const sink: FrameSink = {
    // The same Buffer goes to every socket of a publish: `ws` frames it without copying or encoding.
    send(frame, binary) {
      ctx.writeRound.hold(socket);
      ctx.backlog.send(ws, binary ? frame.gzip() : frame.bytes(), binary);
    },
  };
  /** This socket's own answers (pong, acks, errors): always text. */
  const reply = (text: string): void => {
    ctx.writeRound.hold(socket);
    ctx.backlog.send(ws, text);
  };
  ctx.backlog.watch(ws);
  const idle = protocol.heartbeat === 'idle-close' ? setTimeout(() => ws.close(1000, 'idle'), ctx.idleMs) : undefined;
  idle?.unref();

  /** One client message; what it is answered (an ack, snapshots) goes out in one write. */
  const answer = (data: RawData): void => {
    if (ws.readyState !== WebSocket.OPEN) return;
    idle?.refresh();
    if (!window.admit(ctx.clock())) {
      ws.close(1008, 'too many messages');
      return;
    }
    const message = readClientMessage(textOf(data), ctx.lookup, protocol.version);
    switch (message.kind) {
      case 'ping':
        reply(pongText(protocol.pong(message.pong, ctx.clock())));
        break;
      case 'error':
        reply(errorFrame(message.error, message.id));
        break;
      case 'cancel_all': {
        ctx.fanout.cancelAll(own);
        const ack = { event: 'cancel_all', code: '0', msg: 'Success' };
        reply(JSON.stringify(message.id === undefined ? ack : { id: message.id, ...ack }));
        break;
      }
      case 'subscription': {
        const request = message.request;
        const acknowledge = (): void => {
          const ack = protocol.ack(request);
          if (ack !== undefined) reply(ack);
        };
        const refused = ctx.fanout.apply(sink, own, request, acknowledge);
        if (refused !== undefined) reply(errorFrame(refused, request.id));
        break;
      }
    }
  };
  ws.on('message', (data) => ctx.writeRound.run(() => answer(data)));
  // A protocol ping is a sign of life too; `ws` answers it with a pong by itself.
  ws.on('ping', () => idle?.refresh());
  ws.on('error', (error) => ctx.logger.debug({ err: error }, 'market socket error'));
  ws.once('close', () => {
    clearTimeout(idle);
    ctx.fanout.cancelAll(own);
    onClosed();
  });
}
