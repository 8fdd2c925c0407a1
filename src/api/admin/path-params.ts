/**
 * Path parameters of the operator routes, declared once: each kind reads the segment into the
 * handler's typed value and names its form for the OpenAPI document. A path names an object, so
 * a segment that cannot name one is 404 naming it, as an unknown object is.
 */
import { BourseError } from '../../core/errors.js';
import type { JsonSchema } from '../response-schema.js';
import type { Param } from './operator-param.js';

export type PathParam<Value> = Param<'path', Value>;

/** A path id: 1 to 15 digits. */
const PATH_ID = /^[0-9]{1,15}$/;

/** The id of a `what` (`user`, `account`, `withdrawal`): digits only, else 404 naming `what` and the text. */
export function id(what: string): PathParam<number> {
  return {
    in: 'path',
    schema: { type: 'string', pattern: PATH_ID.source, description: `the ${what}'s id` },
    required: true,
    read: (sent = '') => {
      if (!PATH_ID.test(sent)) throw new BourseError('NOT_FOUND', [`${what} ${sent}`]);
      return Number(sent);
    },
  };
}

/** A segment as sent (decoded), which the handler looks up. */
export function text(description: string): PathParam<string> {
  return { in: 'path', schema: { type: 'string', description }, required: true, read: (sent = '') => sent };
}

/** A segment read by `parse`, which refuses one that is not of its form; `schema` names the form. */
export function parsed<Value>(schema: JsonSchema, parse: (text: string) => Value): PathParam<Value> {
  return { in: 'path', schema, required: true, read: (sent = '') => parse(sent) };
}
