import { gzipSync } from 'node:zlib';
import type { RequestId } from './market-errors.js';
import type { TopicItems } from './market-items.js';
import type { EchoParams } from './market-request.js';
import { frameParams, frameTopic, type Topic } from './market-topics.js';

/**
 * How a protocol writes frames (docs/websocket.md: v1 "Frames", v2 "Pushes"): a head per
 * subscription, made once when it subscribes, and the texts of one publish for a head. The texts
 * are made once per publish and head, however many subscriptions share the head.
 */
export interface FrameWire {
  head(id: RequestId, symbol: string, topic: Topic, params: EchoParams): string;
  texts(head: string, publish: FramePublish): string[];
}

/**
 * v1's frame fields before `data` (`id` only when the request had one; `params` the request's,
 * plus `klineType` / `realtimeInterval`), as JSON text without its closing brace.
 */
function frameHead(id: RequestId, symbol: string, topic: Topic, params: EchoParams): string {
  const fields = { symbol, symbolName: symbol, topic: frameTopic(topic), params: { binary: 'false', ...params, ...frameParams(topic) } };
  return JSON.stringify(id === undefined ? fields : { id, ...fields }).slice(0, -1);
}

/** `{…head,"data":[…],"f":…,"sendTime":…}` (docs/websocket.md "Market stream"); `dataJson` is the JSON array text. */
function frameText(head: string, dataJson: string, first: boolean, sendTime: number): string {
  return `${head},"data":${dataJson},"f":${first},"sendTime":${sendTime}}`;
}

/** The `data` array of a publish as v1 writes it: serialised once for all v1 heads. */
const v1Data = new WeakMap<FramePublish, string>();

/** v1: one frame per publish, `data` every item (the index topic's frames on v2 too). */
export const V1_WIRE: FrameWire = {
  head: frameHead,
  texts(head, publish) {
    let data = v1Data.get(publish);
    if (data === undefined) {
      data = JSON.stringify(publish.data.items);
      v1Data.set(publish, data);
    }
    return [frameText(head, data, publish.first, publish.sendTime)];
  },
};

/**
 * One frame as every subscriber that gets it is sent it: the text, its UTF-8 bytes for a text
 * frame and their gzip for a binary one, each made at most once, however many sockets take it.
 * `ws` writes a Buffer as it is; a string it would encode afresh for every socket.
 */
export class MarketFrame {
  private utf8: Buffer | undefined;
  private gzipped: Buffer | undefined;

  constructor(readonly text: string) {}

  /** The payload of a text frame. */
  bytes(): Buffer {
    return (this.utf8 ??= Buffer.from(this.text, 'utf8'));
  }

  /** The payload of a binary (`params.binary`) frame. */
  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.bytes()));
  }
}

const NO_FRAMES: readonly MarketFrame[] = [];

/**
 * The frames of one publish (one `data` at one `sendTime`, a snapshot when `first`):
 * subscriptions with the same wire and head (same protocol, request id and params, so the same
 * text) share its `MarketFrame`s.
 */
export class FramePublish {
  private readonly byWire = new Map<FrameWire, Map<string, readonly MarketFrame[]>>();
  private made = 0;

  constructor(
    readonly data: TopicItems,
    readonly first: boolean,
    readonly sendTime: number,
  ) {}

  framesFor(wire: FrameWire, head: string): readonly MarketFrame[] {
    let byHead = this.byWire.get(wire);
    if (byHead === undefined) {
      byHead = new Map();
      this.byWire.set(wire, byHead);
    }
    let frames = byHead.get(head);
    if (frames === undefined) {
      const texts = wire.texts(head, this);
      frames = texts.length === 0 ? NO_FRAMES : texts.map((text) => new MarketFrame(text));
      byHead.set(head, frames);
      this.made += frames.length;
    }
    return frames;
  }

  /** Distinct frames made so far. */
  get size(): number {
    return this.made;
  }
}
