/**
 * An operator route is one declaration: its parameters are read into the values the handler
 * receives (typed, checked, in a fixed order) and are the same objects the reference shows.
 */
import { describe, expect, it } from 'vitest';
import { AdminBody } from '../../../../src/api/admin/admin-body.js';
import * as B from '../../../../src/api/admin/body-members.js';
import { operatorEndpoint, type OperatorEndpoint, type SentRequest } from '../../../../src/api/admin/operator-endpoint.js';
import * as P from '../../../../src/api/admin/path-params.js';
import * as Q from '../../../../src/api/admin/query-params.js';
import { BourseError } from '../../../../src/core/errors.js';

function sent(path: Record<string, string>, query: Record<string, string | string[]>, body = ''): SentRequest {
  return { path, query, body: AdminBody.parse(body, 'application/json') };
}

/** The `{code, msg}` and status a request is refused with. */
async function refusal(endpoint: OperatorEndpoint, request: SentRequest): Promise<{ http: number; code: number; msg: string }> {
  try {
    await endpoint.answer(request);
  } catch (error) {
    if (error instanceof BourseError) return { http: error.http, ...error.toBody() };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A route with a parameter of each place, whose handler answers what it received. */
const echo = operatorEndpoint({
  id: 'T1',
  summary: 'echo',
  method: 'POST',
  path: '/things/:thingId',
  response: {},
  example: {},
  params: {
    path: { thingId: P.id('thing') },
    query: { limit: Q.withDefault(Q.integer({ min: 1, max: 10 }), 5), side: Q.oneOf(['BUY', 'SELL']) },
    body: B.members({ amount: B.required(B.decimal()), count: B.integer({ min: 1 }), tags: B.someOf(['a', 'b']) }),
  },
  handler: (input) => input,
});

describe('operatorEndpoint: declared parameters read into the handler', () => {
  it('when every parameter is well formed, then the handler receives them typed: ids and counts as numbers, decimals as their text', async () => {
    const input = await echo.answer(sent({ thingId: '0042' }, { side: 'SELL' }, '{"amount": 12345678.123456789, "count": "3", "tags": ["b", "a"]}'));
    expect(input).toEqual({ path: { thingId: 42 }, query: { limit: 5, side: 'SELL' }, body: { amount: '12345678.123456789', count: 3, tags: ['b', 'a'] } });
  });

  it('when optional members are absent or null, then they are undefined and the defaults apply', async () => {
    const input = await echo.answer(sent({ thingId: '1' }, { limit: '', side: '' }, '{"amount": "1", "count": null}'));
    expect(input).toEqual({ path: { thingId: 1 }, query: { limit: 5, side: undefined }, body: { amount: '1', count: undefined, tags: undefined } });
  });

  it.each([
    ['a path id that is no id (and a bad query and body too)', { thingId: 'x1' }, { limit: '0' }, '{}', { http: 404, code: -1000, msg: 'thing x1 does not exist.' }],
    ['a query value out of range (and a bad body too)', { thingId: '1' }, { limit: '11' }, '{}', { http: 400, code: -1130, msg: "Data sent for paramter 'limit' is not valid." }],
    ['a query name sent twice', { thingId: '1' }, { side: ['BUY', 'SELL'] }, '{"amount": "1"}', { http: 400, code: -1130, msg: "Data sent for paramter 'side' is not valid." }],
    ['a missing member before a bad later one', { thingId: '1' }, {}, '{"count": 0}', { http: 400, code: -1102, msg: "Mandatory parameter 'amount' was not sent, was empty/null, or malformed." }],
    [
      'a count below its minimum',
      { thingId: '1' },
      {},
      '{"amount": "1", "count": 0}',
      { http: 400, code: -1130, msg: "Data sent for paramter 'count' is not valid. (legal range is 1-9007199254740991)" },
    ],
    ['a value outside a list', { thingId: '1' }, {}, '{"amount": "1", "tags": ["a", "c"]}', { http: 400, code: -1130, msg: "Data sent for paramter 'tags' is not valid." }],
    [
      'a list that is no array of strings',
      { thingId: '1' },
      {},
      '{"amount": "1", "tags": "a"}',
      { http: 400, code: -1100, msg: "Illegal characters found in parameter 'tags'; legal range is 'an array of strings'." },
    ],
  ])('when the request has %s, then the first refusal in the order path, query, body is the answer', async (_what, path, query, body, expected) => {
    expect(await refusal(echo, sent(path, query, body))).toEqual(expected);
  });

  it('when a refusal is thrown, then the handler is not called', async () => {
    let calls = 0;
    const counted = operatorEndpoint({
      id: 'T2',
      summary: 'counted',
      method: 'POST',
      path: '/counted',
      response: {},
      example: {},
      params: { body: B.members({ n: B.required(B.integer()) }) },
      handler: () => ++calls,
    });
    await refusal(counted, sent({}, {}, '{"n": -1}'));
    expect(calls).toBe(0);
    expect(await counted.answer(sent({}, {}, '{"n": 1}'))).toBe(1);
  });

  it('when the path names a parameter the declaration does not have, then building the route fails naming both', () => {
    expect(() =>
      operatorEndpoint({
        id: 'T3',
        summary: 'wrong',
        method: 'GET',
        path: '/users/:userId',
        response: {},
        example: {},
        // @ts-expect-error the compiler refuses it too: every `:name` of the path must be declared
        params: { path: { user: P.id('user') } },
        handler: () => undefined,
      }),
    ).toThrow('operator route T3: path parameters userId but declared user');
  });

  it('when the declaration is built, then the reference sees the same parameter objects the reader uses', () => {
    expect(echo.params.path?.thingId.schema).toEqual({ type: 'string', pattern: '^[0-9]{1,15}$', description: "the thing's id" });
    expect(echo.params.query?.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 5 });
    expect(echo.params.body?.schema).toEqual({
      type: 'object',
      properties: {
        amount: { type: ['string', 'number'], minimum: 0, pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
        count: { type: ['integer', 'string'], minimum: 1, maximum: Number.MAX_SAFE_INTEGER, pattern: '^[0-9]+$' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
      required: ['amount'],
    });
  });
});
