import { describe, it, expect } from 'vitest';
import { BourseError, ERRORS, reject, type ErrorName } from '../../../src/core/errors.js';

const entries = Object.entries(ERRORS) as [ErrorName, (typeof ERRORS)[ErrorName]][];

/** The table of docs/spot-api.md "Errors", one row per message: [code, message, HTTP status]. */
const SPEC_TABLE: readonly (readonly [number, string, number])[] = [
  [-1000, 'Unknown path or method.', 404],
  [-1000, 'Request body too large.', 413],
  [-1000, 'Unsupported content type.', 415],
  [-1001, 'Internal error; unable to process your request. Please try again.', 500],
  [-1002, 'You are not authorized to execute this request.', 400],
  [-1003, 'Too many requests; current limit is %s requests per %s.', 429],
  [-1003, 'Way too many requests; IP banned until %s.', 418],
  [-1005, 'No permission for this action.', 400],
  [-1007, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.', 504],
  [-1015, 'Too many new orders; current limit is %s orders per %s.', 429],
  [-1016, 'This service is no longer available.', 503],
  [-1021, 'Timestamp for this request is outside of the recvWindow.', 400],
  [-1022, 'Signature for this request is not valid.', 400],
  [-1100, "Illegal characters found in parameter '%s'; legal range is '%s'.", 400],
  [-1101, 'Duplicate values for a parameter detected.', 400],
  [-1102, "Mandatory parameter '%s' was not sent, was empty/null, or malformed.", 400],
  [-1102, "Param '%s' or '%s' must be sent, but both were empty/null!", 400],
  [-1106, "Parameter '%s' sent when not required.", 400],
  [-1112, 'No orders on book for symbol.', 400],
  [-1115, 'Invalid timeInForce.', 400],
  [-1116, 'Invalid orderType.', 400],
  [-1116, 'Order type not available.', 400],
  [-1117, 'Invalid side.', 400],
  [-1120, 'Invalid interval.', 400],
  [-1121, 'Invalid symbol.', 400],
  [-1125, 'This listenKey does not exist.', 400],
  [-1128, 'Combination of optional parameters invalid.', 400],
  [-1130, "Data sent for paramter '%s' is not valid.", 400],
  [-1131, 'Balance insufficient', 400],
  [-1132, 'Order price too high.', 400],
  [-1133, 'Order price lower than the minimum.', 400],
  [-1134, 'Order price decimal too long.', 400],
  [-1135, 'Order quantity too large.', 400],
  [-1136, 'Order quantity lower than the minimum.', 400],
  [-1137, 'Order quantity decimal too long.', 400],
  [-1139, 'Order has been filled.', 400],
  [-1140, 'Transaction amount lower than the minimum.', 400],
  [-1141, 'Duplicate clientOrderId', 400],
  [-1142, 'Order has been canceled', 400],
  [-1148, 'Market order amount decimal too long.', 400],
  [-1151, 'Symbol is not open for trading.', 400],
  [-1153, 'User does not exist.', 400],
  [-1158, 'Order would immediately match and take.', 400],
  [-1171, 'Account does not exist.', 400],
  [-1172, 'Balance transfer failed: %s', 400],
  [-1174, 'Repeated submit request.', 400],
  [-2010, 'New order rejected: Filter failure: MAX_NUM_ORDERS.', 400],
  [-2010, 'New order rejected: Filter failure: BROKER_MAX_NUM_ORDERS.', 400],
  [-2013, 'Order does not exist.', 400],
  [-2014, 'API-key format invalid.', 400],
  [-2015, 'Invalid API-key, IP, or permissions for action.', 400],
];

const SPEC_CODES = [
  -1000, -1001, -1002, -1003, -1005, -1007, -1015, -1016, -1021, -1022, -1100, -1101, -1102, -1106, -1112, -1115,
  -1116, -1117, -1120, -1121, -1125, -1128, -1130, -1131, -1132, -1133, -1134, -1135, -1136, -1137, -1139, -1140,
  -1141, -1142, -1148, -1151, -1153, -1158, -1171, -1172, -1174, -2010, -2013, -2014, -2015,
];

describe('error registry entries', () => {
  it.each(entries)('when %s is read, then its code is a negative integer and its http an error status', (_, spec) => {
    expect(Number.isInteger(spec.code)).toBe(true);
    expect(spec.code).toBeLessThan(0);
    expect(Number.isInteger(spec.http)).toBe(true);
    expect(spec.http).toBeGreaterThanOrEqual(400);
    expect(spec.http).toBeLessThanOrEqual(599);
    expect(spec.msg.length).toBeGreaterThan(0);
  });

  it('when the registry codes are listed, then they are exactly the codes of docs/spot-api.md "Errors"', () => {
    const codes = [...new Set(entries.map(([, spec]) => spec.code))].sort((a, b) => b - a);
    expect(codes).toEqual(SPEC_CODES);
  });

  it.each(SPEC_TABLE)('when docs/spot-api.md "Errors" requires code %i with %j, then an entry has that code, message and status %i', (code, msg, http) => {
    const match = entries.find(([, spec]) => spec.code === code && spec.msg === msg);
    expect(match?.[1].http).toBe(http);
  });

  it('when the operator API rejects a token, then missing is 401 -1002 and wrong is 401 -2015', () => {
    expect(ERRORS.ADMIN_UNAUTHORIZED).toEqual({ code: -1002, msg: 'You are not authorized to execute this request.', http: 401 });
    expect(ERRORS.ADMIN_INVALID_TOKEN).toEqual({ code: -2015, msg: 'Invalid admin token.', http: 401 });
  });

  it('when the operator API names an unknown object, then NOT_FOUND is 404 -1000 with the object in msg', () => {
    const error = new BourseError('NOT_FOUND', ['withdrawal 42']);
    expect(error.http).toBe(404);
    expect(error.code).toBe(-1000);
    expect(error.message).toContain('withdrawal 42');
  });
});

describe('coinsph phrase rules (docs/spot-api.md "Compatibility" item 19)', () => {
  it('when messages are searched for "Order would immediately match and take", then only -1158 entries contain it', () => {
    const codes = entries.filter(([, spec]) => spec.msg.includes('Order would immediately match and take')).map(([, spec]) => spec.code);
    expect(codes).toEqual([-1158]);
  });

  it('when messages are searched for "MAX_NUM_ORDERS", then only -2010 entries contain it', () => {
    const names = entries.filter(([, spec]) => spec.msg.includes('MAX_NUM_ORDERS')).map(([name, spec]) => [name, spec.code]);
    expect(names).toEqual([
      ['MAX_NUM_ORDERS', -2010],
      ['BROKER_MAX_NUM_ORDERS', -2010],
    ]);
  });

  it.each(['Market is closed', 'Unknown order sent', 'Duplicate order sent', 'not supported for this symbol'])(
    'when messages are searched for %j, then none contains it',
    (phrase) => {
      expect(entries.filter(([, spec]) => spec.msg.includes(phrase)).map(([name]) => name)).toEqual([]);
    },
  );
});

describe('BourseError', () => {
  it('when built from a name, then it carries the entry code, status, name and message', () => {
    const error = new BourseError('INVALID_SYMBOL');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(-1121);
    expect(error.http).toBe(400);
    expect(error.errorName).toBe('INVALID_SYMBOL');
    expect(error.message).toBe('Invalid symbol.');
  });

  it('when args are given, then they fill the %s placeholders in order', () => {
    const error = new BourseError('ILLEGAL_CHARS', ['symbol', '[A-Z0-9]{1,20}']);
    expect(error.message).toBe("Illegal characters found in parameter 'symbol'; legal range is '[A-Z0-9]{1,20}'.");
  });

  it('when args are numbers, then they are written as decimal text', () => {
    expect(new BourseError('TOO_MANY_REQUESTS', [1200, '1m']).message).toBe(
      'Too many requests; current limit is 1200 requests per 1m.',
    );
  });

  it('when fewer args than placeholders are given, then the missing ones become empty', () => {
    expect(new BourseError('ONE_OF_PARAMS', ['orderId']).message).toBe(
      "Param 'orderId' or '' must be sent, but both were empty/null!",
    );
  });

  it('when more args than placeholders are given, then the extra ones are ignored', () => {
    expect(new BourseError('PARAM_NOT_REQUIRED', ['stopPrice', 'icebergQty']).message).toBe(
      "Parameter 'stopPrice' sent when not required.",
    );
  });

  it('when an arg holds "%s" or a replacement pattern, then it is copied literally', () => {
    expect(new BourseError('ONE_OF_PARAMS', ['%s', "$&$'"]).message).toBe(
      "Param '%s' or '$&$'' must be sent, but both were empty/null!",
    );
  });

  it('when a detail is given, then it is appended after one space', () => {
    expect(new BourseError('TRANSFER_FAILED', ['same account'], '(from 7 to 7)').message).toBe(
      'Balance transfer failed: same account (from 7 to 7)',
    );
  });

  it('when turned into a body, then it is exactly {code, msg}', () => {
    const body = new BourseError('MANDATORY_PARAM', ['quantity']).toBody();
    expect(body).toStrictEqual({ code: -1102, msg: "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed." });
    expect(JSON.stringify(body)).toBe(
      '{"code":-1102,"msg":"Mandatory parameter \'quantity\' was not sent, was empty/null, or malformed."}',
    );
  });

  it('when the entry has no placeholders, then the body message is the registry text', () => {
    expect(new BourseError('WOULD_TAKE').toBody()).toStrictEqual({ code: -1158, msg: 'Order would immediately match and take.' });
  });
});

describe('reject', () => {
  it('when called, then it throws the BourseError of that name with args and detail', () => {
    let thrown: unknown;
    try {
      reject('INVALID_PARAM_VALUE', ['limit'], 'at most 1000');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BourseError);
    const error = thrown as BourseError;
    expect(error.errorName).toBe('INVALID_PARAM_VALUE');
    expect(error.toBody()).toStrictEqual({ code: -1130, msg: "Data sent for paramter 'limit' is not valid. at most 1000" });
    expect(error.http).toBe(400);
  });
});
