/**
 * A configuration document (the trading or the payments configuration) as members the operator
 * edits as text, and the PATCH body of the changed ones. Each member goes out as the JSON type of
 * the value it replaces, exactly as typed: a count as the digits typed (never through a double), a
 * switch as `true`/`false`, a text quoted, a list as the JSON typed. Anything else goes out quoted,
 * so that the server judges it and its message names the member.
 */
import type { Json } from './api.js';

export type Kind = 'count' | 'text' | 'flag' | 'json';

export interface Member {
  path: string;
  kind: Kind;
  /** The value as the server answered it, as text: what an edit is compared with. */
  text: string;
}

const asJsonText = (value: Json): string => (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null) ? JSON.stringify(value, null, 2) : JSON.stringify(value));

/** The document as editable members: scalars, and the members of its objects one level down. */
export function membersOf(config: Readonly<Record<string, Json>>): Member[] {
  const members: Member[] = [];
  const add = (path: string, value: Json): void => {
    if (typeof value === 'number') members.push({ path, kind: 'count', text: String(value) });
    else if (typeof value === 'string') members.push({ path, kind: 'text', text: value });
    else if (typeof value === 'boolean') members.push({ path, kind: 'flag', text: String(value) });
    else members.push({ path, kind: 'json', text: value === null ? 'null' : asJsonText(value) });
  };
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const [inner, v] of Object.entries(value)) add(`${name}.${inner}`, v);
    else add(name, value);
  }
  return members;
}

/** The edited texts of `members`, by path, as they start: the values the server answered. */
export function textsOf(members: readonly Member[]): Record<string, string> {
  return Object.fromEntries(members.map((m) => [m.path, m.text]));
}

/** One member's value as JSON text: what was typed, quoted only where the member is text (or not a number as typed). */
function encoded(member: Member, typed: string): string {
  switch (member.kind) {
    case 'count':
      return /^-?(0|[1-9]\d*)$/u.test(typed) ? typed : JSON.stringify(typed);
    case 'flag':
      return typed === 'true' || typed === 'false' ? typed : JSON.stringify(typed);
    case 'text':
      return JSON.stringify(typed);
    case 'json':
      try {
        JSON.parse(typed);
      } catch (error) {
        throw new Error(`${member.path}: not JSON (${error instanceof Error ? error.message : String(error)}).`);
      }
      return typed.trim();
  }
}

/** The PATCH body of the changed members, nested again under their parents, as JSON text. */
export function patchText(members: readonly Member[], edit: Readonly<Record<string, string>>): string {
  const groups = new Map<string, string[]>();
  for (const member of members) {
    const [parent, inner] = member.path.includes('.') ? [member.path.slice(0, member.path.indexOf('.')), member.path.slice(member.path.indexOf('.') + 1)] : ['', member.path];
    const piece = `${JSON.stringify(inner)}:${encoded(member, edit[member.path] ?? '')}`;
    groups.set(parent, [...(groups.get(parent) ?? []), piece]);
  }
  const top = [...(groups.get('') ?? [])];
  for (const [parent, pieces] of groups) if (parent !== '') top.push(`${JSON.stringify(parent)}:{${pieces.join(',')}}`);
  return `{${top.join(',')}}`;
}
