/**
 * Readable output for people; `--json` prints the server's own text instead. The readable form is
 * derived from the answer's shape (key-value lines for an object, a table for a list of objects),
 * so a field the server adds shows up without a change here.
 */

type JsonRecord = Readonly<Record<string, unknown>>;

const COLUMN_GAP = '  ';

/** The server's JSON text on one line: only the whitespace around line breaks goes, which JSON never has inside a string. */
export function formatJsonLine(raw: string): string {
  return `${raw.trim().replace(/\s*[\r\n]+\s*/g, '')}\n`;
}

export function formatReadable(answer: unknown): string {
  const value = readableTimes(answer);
  if (Array.isArray(value)) return value.length === 0 ? '(none)\n' : joinLines(formatList(value));
  if (isRecord(value)) return Object.keys(value).length === 0 ? 'ok\n' : joinLines(formatRecord(value));
  return `${cell(value)}\n`;
}

/** Names of members holding a time in ms (docs/operating.md "Values": times as ms numbers). */
const TIME_KEY = /^(time|until)$|(Time|At)$/;
/** From 2001-09-09 to 5138: smaller numbers under such a name are counts or zero, left as they are. */
const MIN_MS = 1e12;
const MAX_MS = 1e14;

/**
 * Times in ms (`time`, `updateTime`, `createdAt`, `until`, …) as ISO 8601 UTC text, for the
 * readable form only; `--json` prints the server's numbers as they are.
 */
export function readableTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readableTimes);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      TIME_KEY.test(key) && typeof field === 'number' && Number.isInteger(field) && field >= MIN_MS && field < MAX_MS
        ? new Date(field).toISOString()
        : readableTimes(field),
    ]),
  );
}

/** A user's accounts in one cell: `7 main`, `8 #1 savings`. */
export function formatUsers(answer: unknown): string {
  if (!Array.isArray(answer)) return formatReadable(answer);
  return formatReadable(
    answer.map((user: unknown) => {
      if (!isRecord(user) || !Array.isArray(user.accounts)) return user;
      const accounts = user.accounts
        .filter(isRecord)
        .map((a) => (a.accountIndex === 0 ? `${cell(a.accountId)} main` : `${cell(a.accountId)} #${cell(a.accountIndex)}${a.name ? ` ${cell(a.name)}` : ''}`));
      return { ...user, accounts: accounts.join('; ') };
    }),
  );
}

/** `cluster`: one row per node, its last heartbeat as an ISO time (the name carries no time suffix for `readableTimes`). */
export function formatCluster(answer: unknown): string {
  if (!isRecord(answer) || !Array.isArray(answer.nodes) || !answer.nodes.every(isRecord)) return formatReadable(answer);
  return formatReadable(
    answer.nodes.map((node) =>
      typeof node.lastHeartbeat === 'number' && Number.isSafeInteger(node.lastHeartbeat) ? { ...node, lastHeartbeat: new Date(node.lastHeartbeat).toISOString() } : node,
    ),
  );
}

/** Rows aligned under a header; columns in the order their keys first appear. */
export function formatTable(rows: readonly JsonRecord[]): string[] {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return alignRows([columns, ...rows.map((row) => columns.map((column) => cell(row[column])))]);
}

/** `key  value` lines with the values aligned. */
export function formatKeyValues(entries: readonly (readonly [string, string])[]): string[] {
  return alignRows(entries.map(([key, value]) => [key, value]));
}

/** `verify`: "ledger ok", or the entries that do not balance. */
export function formatVerify(answer: unknown): string {
  const replay = isRecord(answer) && isRecord(answer.replay) ? answer.replay : undefined;
  const replayLines =
    replay === undefined
      ? []
      : replay.ok === true
        ? [`journal replay ok (state hash ${cell(replay.stateHash)})`]
        : ['journal replay NOT ok', ...formatKeyValues(Object.entries(replay).filter(([key]) => key !== 'ok').map(([key, value]) => [key, cell(value)] as const))];
  if (isLedgerOk(answer)) return joinLines(['ledger ok', ...replayLines]);
  if (replay !== undefined && replay.ok !== true && !hasFailingDetails(answer)) return joinLines(['ledger NOT ok', ...replayLines]);
  const details = isRecord(answer) && Array.isArray(answer.details) ? answer.details.filter(isRecord) : [];
  // Asset entries carry `mismatch` only when they fail; account entries are listed only when they fail.
  const failing = details.filter((entry) => 'mismatch' in entry || 'accountId' in entry);
  const shown = failing.length > 0 ? failing : details;
  return joinLines(['ledger NOT ok', ...(shown.length > 0 ? formatTable(shown) : [])]);
}

function hasFailingDetails(answer: unknown): boolean {
  return isRecord(answer) && Array.isArray(answer.details) && answer.details.filter(isRecord).some((entry) => 'mismatch' in entry || 'accountId' in entry);
}

export function isLedgerOk(answer: unknown): boolean {
  return isRecord(answer) && answer.ok === true;
}

function formatList(items: readonly unknown[]): string[] {
  return items.every(isRecord) ? formatTable(items) : items.map(cell);
}

/** Scalars (nested objects flattened to `a.b`) as key-value lines, then each list of objects as a table. */
function formatRecord(record: JsonRecord): string[] {
  const entries: [string, string][] = [];
  const tables: string[] = [];
  const visit = (value: JsonRecord, prefix: string): void => {
    for (const [key, field] of Object.entries(value)) {
      const name = prefix + key;
      if (isRecord(field) && Object.keys(field).length > 0) visit(field, `${name}.`);
      else if (Array.isArray(field) && field.length > 0 && field.every(isRecord)) {
        tables.push('', `${name}:`, ...formatTable(field));
      } else entries.push([name, cell(field)]);
    }
  };
  visit(record, '');
  const lines = [...formatKeyValues(entries), ...tables];
  return entries.length === 0 ? lines.slice(1) : lines;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((item) => !isRecord(item) && !Array.isArray(item))) {
    return value.map(cell).join(',');
  }
  return JSON.stringify(value);
}

function alignRows(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((text, index) => (widths[index] = Math.max(widths[index] ?? 0, text.length)));
  return rows.map((row) =>
    row
      .map((text, index) => (index === row.length - 1 ? text : text.padEnd(widths[index])))
      .join(COLUMN_GAP)
      .trimEnd(),
  );
}

function joinLines(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
