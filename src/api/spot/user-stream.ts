import { requireKey, type Endpoint, type ParamDoc, type RequestContext } from '../endpoint.js';
import type { OpenListenKeyResult } from '../../exchange/listen-key-module.js';
import { FORMATS, readString } from '../params.js';
import type { ListenKeys } from '../ws/listen-keys.js';
import { object, type JsonSchema } from '../response-schema.js';
import { emptyObject } from './schemas.js';

const listenKeySchema: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9]{64}$' };

const LISTEN_KEY_PARAMS: readonly ParamDoc[] = [{ name: 'listenKey', type: 'STRING', required: true, description: '64 [A-Za-z0-9], from A26' }];

function listenKeyParam(ctx: RequestContext): string {
  return readString(ctx.params, 'listenKey', { pattern: FORMATS.listenKey, required: true });
}

/**
 * A26–A28 (docs/spot-api.md "User data streams"): listenKeys of the W1 user data stream, bound to
 * the key's account. Each is a command of the core, answered once committed; the core refuses an
 * unknown, expired or another account's listenKey with -1125.
 */
export function userStreamEndpoints(listenKeys: ListenKeys): Endpoint[] {
  return [
    {
      id: 'A26',
      summary: 'Start user data stream',
      method: 'POST',
      group: 'private',
      path: 'userDataStream',
      security: 'USER_STREAM',
      weight: 1,
      params: [],
      response: object({ listenKey: listenKeySchema }),
      example: { listenKey: '1A9LWJjuMwKWYP4QQPw34GRm8gz3x5AephXSuqcDef1RnzoBVhEeGE963CoS1Sgj' },
      handler: async (ctx) => {
        const key = requireKey(ctx);
        const opened = await ctx.exchange.submit<OpenListenKeyResult>({ type: 'openListenKey', listenKey: listenKeys.draw(), accountId: key.accountId, apiKey: key.apiKey });
        return { listenKey: opened.listenKey };
      },
    },
    {
      id: 'A27',
      summary: 'Keepalive user data stream',
      method: 'PUT',
      group: 'private',
      path: 'userDataStream',
      security: 'USER_STREAM',
      weight: 1,
      params: LISTEN_KEY_PARAMS,
      response: emptyObject,
      example: {},
      handler: async (ctx) => {
        await ctx.exchange.submit({ type: 'keepaliveListenKey', listenKey: listenKeyParam(ctx), accountId: requireKey(ctx).accountId });
        return {};
      },
    },
    {
      id: 'A28',
      summary: 'Close user data stream',
      method: 'DELETE',
      group: 'private',
      path: 'userDataStream',
      security: 'USER_STREAM',
      weight: 1,
      params: LISTEN_KEY_PARAMS,
      response: emptyObject,
      example: {},
      handler: async (ctx) => {
        await ctx.exchange.submit({ type: 'closeListenKey', listenKey: listenKeyParam(ctx), accountId: requireKey(ctx).accountId });
        return {};
      },
    },
  ];
}
