import type { RequestId } from './market-errors.js';
import { V1_WIRE, type FramePublish, type FrameWire } from './market-frames.js';
import type { TopicItems } from './market-items.js';
import type { EchoParams, SubscriptionRequest } from './market-request.js';
import { frameParams, frameTopic, type StreamVersion, type Topic } from './market-topics.js';

/**
 * The v2 market stream's frames (docs/websocket.md "v2 market stream"): an ack per applied `sub`
 * or `cancel`, and pushes `{"topic","params","data":{…}}` of one item each, from the same publishes
 * as v1's frames.
 */

/** v2's `data` items: v1's, some under the names the v2 clients read. */
function v2Items(data: TopicItems): object[] {
  switch (data.kind) {
    case 'trade':
    case 'kline':
    case 'index':
      return data.items;
    case 'depth':
    case 'diffDepth':
      return data.items.map(({ s, t, v, b, a }) => ({ s, t, v, b, a }));
    case 'bookTicker':
      return data.items.map((item) => ({ symbol: item.s, bidPrice: item.b, bidQty: item.bq, askPrice: item.a, askQty: item.aq, time: item.t }));
    case 'realtimes':
      return data.items.map(({ t, s, o, h, l, c, v, qv, m }) => ({ t, s, o, h, l, c, v, qv, m }));
  }
}

/** The `data` objects of a publish as v2 writes them: serialised once for all v2 heads. */
const v2Data = new WeakMap<FramePublish, string[]>();

/** A push's `params`: the request's, with the symbol as listed and the defaults filled in. */
function pushParams(symbol: string, topic: Topic, params: EchoParams): EchoParams {
  return { binary: false, ...params, symbol, ...frameParams(topic) };
}

/**
 * v2: one push per item (a trade publish of three trades is three pushes). A subscription's first
 * publish is its current state (the book, the ticker, the last bars) with no `f` to tell it apart,
 * so a trade subscription starts with the next trade rather than with past ones a client would
 * take for new.
 */
const V2_WIRE: FrameWire = {
  head(_id: RequestId, symbol, topic, params) {
    return JSON.stringify({ topic: frameTopic(topic), params: pushParams(symbol, topic, params) }).slice(0, -1);
  },
  texts(head, publish) {
    if (publish.first && publish.data.kind === 'trade') return [];
    let items = v2Data.get(publish);
    if (items === undefined) {
      items = v2Items(publish.data).map((item) => JSON.stringify(item));
      v2Data.set(publish, items);
    }
    return items.map((item) => `${head},"data":${item}}`);
  },
};

/** The wire of a subscription: v2's, except the index topic, whose frames are v1's on both paths. */
export function wireOf(version: StreamVersion, topic: Topic): FrameWire {
  return version === 'v2' && topic.kind !== 'index' ? V2_WIRE : V1_WIRE;
}

/** v2's answer to an applied `sub` or `cancel`: its id, event, topic and params, then success. */
export function v2Ack(request: SubscriptionRequest): string {
  const ack = { event: request.event, topic: frameTopic(request.topic), params: request.params, code: '0', msg: 'Success' };
  return JSON.stringify(request.id === undefined ? ack : { id: request.id, ...ack });
}
