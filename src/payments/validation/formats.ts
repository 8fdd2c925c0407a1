/**
 * Syntax checks shared by the area B validators (docs/merchant-payments.md). Pure: no I/O, no clock; callers
 * pass "today" in. Each answers yes or no; choosing the error code is the caller's job.
 */

const DAY_MS = 86_400_000;

/**
 * Dot-atom local part and a dotted host name with a letter TLD: the addresses real mailboxes use,
 * not the full RFC 5322 grammar, whose quoted local parts and IP-literal hosts are mostly typos or
 * probes when they reach a sign-up form.
 */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL_PATTERN = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/** RFC 5321 caps the local part at 64 octets; mail servers refuse longer ones. */
const MAX_EMAIL_LOCAL = 64;

export function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  return at > 0 && at <= MAX_EMAIL_LOCAL && EMAIL_PATTERN.test(text);
}

/**
 * Requires the literal `http://` or `https://` and no whitespace: the WHATWG parser would otherwise
 * accept `http:host` or strip embedded tabs and newlines, and the stored URL would differ from the
 * one the client sent.
 */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || /[\s\p{Cc}]/u.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * Characters no stored text may hold: the C0 and C1 controls and the bidirectional embeddings,
 * overrides and isolates. A NUL cuts a text short in C-based tools, a line break forges lines in
 * logs and CSV exports, and U+202E makes "\u202Eemca" read "acme" to whoever reviews it. The bidi
 * marks (U+200E, U+200F, U+061C) stay allowed: right-to-left names use them, and they reorder
 * nothing around them.
 */
const UNSAFE_TEXT = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** The first control or bidi-override character of `text` as `U+XXXX`, or undefined when there is none. */
export function unsafeCharacter(text: string): string | undefined {
  const found = UNSAFE_TEXT.exec(text);
  return found === null ? undefined : `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `clientId` of B18, B20 and the order creates (docs/merchant-payments.md "Endpoints served"). */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A calendar date; `ms` is its midnight UTC. */
export interface IsoDate {
  readonly y: number;
  readonly m: number;
  readonly d: number;
  readonly ms: number;
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Midnight UTC of a date; `Date.UTC` alone would read years 0–99 as 1900–1999. */
function utcMidnight(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getTime();
}

/** Strict `yyyy-MM-dd` (zero-padded, year 0001–9999) naming a day that exists, else `undefined`. */
export function parseIsoDate(text: string): IsoDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  return { y, m, d, ms: utcMidnight(y, m, d) };
}

/** Midnight UTC of the day containing `todayMs`, for "not in the future" comparisons by date. */
export function startOfUtcDay(todayMs: number): number {
  return Math.floor(todayMs / DAY_MS) * DAY_MS;
}

/** Whole years completed on the UTC date of `todayMs`; a 29 February birthday counts from 1 March. */
export function ageInYears(birth: Pick<IsoDate, 'y' | 'm' | 'd'>, todayMs: number): number {
  const today = new Date(todayMs);
  const [y, m, d] = [today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()];
  const hadBirthday = m > birth.m || (m === birth.m && d >= birth.d);
  return y - birth.y - (hadBirthday ? 0 : 1);
}

/**
 * ISO 13616 structure: two country letters, two check digits, 11–30 letters/digits (15–34 in all).
 * Upper case and without spaces only: the IBAN is a payout account's identity (duplicate checks
 * compare it), so one account must have exactly one spelling.
 */
const IBAN_PATTERN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** Value of the rearranged IBAN mod 97, digit by digit, since the number exceeds 2^53. */
function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const value = Number.parseInt(ch, 36);
    rest = value < 10 ? (rest * 10 + value) % 97 : (rest * 100 + value) % 97;
  }
  return rest;
}

/**
 * Check digits 00, 01 and 99 are never issued (ISO 13616 computes 98 − n mod 97, so 02–98), yet
 * 01 can still satisfy mod-97; refusing them catches that mistyped form.
 */
export function isValidIban(text: string): boolean {
  if (!IBAN_PATTERN.test(text)) return false;
  const check = Number(text.slice(2, 4));
  return check >= 2 && check <= 98 && ibanMod97(text) === 1;
}
