/**
 * How the payments look-ups show what the server sends: an object as a list of its members, a
 * list of objects as a table whose columns are their members. Every value shows exactly as it came
 * (money stays a decimal string); times (`…Time`, ms) also show in ISO 8601 UTC.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Json } from './api.js';
import { timeText, valueText } from './payments-api.js';
import { DoneLine, ErrorLine, Field, Form, Panel, Table } from './ui.js';

/** Members that steer the page (a row's decisions), not facts to read. */
const STEERING = new Set(['actions', 'calls']);

const isTime = (member: string): boolean => /Time$/u.test(member);

function shown(member: string, value: Json | undefined): string {
  const text = valueText(value);
  if (!isTime(member)) return text;
  const iso = timeText(value);
  return iso === '' ? text : iso;
}

export function Facts({ label, record }: { label: string; record: Readonly<Record<string, Json>> }): JSX.Element {
  return (
    <dl class="facts" aria-label={label}>
      {Object.entries(record)
        .filter(([member]) => !STEERING.has(member))
        .map(([member, value]) => (
          <div key={member} class="fact">
            <dt>{member}</dt>
            <dd>{shown(member, value)}</dd>
          </div>
        ))}
    </dl>
  );
}

/** The columns of a list: every member any row has, in first-seen order. */
function columnsOf(rows: readonly Readonly<Record<string, Json>>[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const member of Object.keys(row)) if (!STEERING.has(member) && !columns.includes(member)) columns.push(member);
  return columns;
}

/**
 * A list as a table. `cell` may draw a member its own way (an id that opens its object); `extra`
 * adds a last column (a row's decisions).
 */
export function RowsTable({
  label,
  rows,
  cell,
  extra,
}: {
  label: string;
  rows: readonly Readonly<Record<string, Json>>[];
  cell?: (member: string, row: Readonly<Record<string, Json>>) => ComponentChildren | undefined;
  extra?: { head: string; render: (row: Readonly<Record<string, Json>>, index: number) => ComponentChildren };
}): JSX.Element {
  const columns = columnsOf(rows);
  return (
    <Table label={label} head={extra === undefined ? columns : [...columns, extra.head]} empty={rows.length === 0}>
      {rows.map((row, index) => (
        <tr key={index}>
          {columns.map((member) => (
            <td key={member} class={isTime(member) ? 'time' : undefined}>
              {cell?.(member, row) ?? shown(member, row[member])}
            </td>
          ))}
          {extra === undefined ? null : <td>{extra.render(row, index)}</td>}
        </tr>
      ))}
    </Table>
  );
}

/** A look-up answer's member that is a list of objects, or an empty list. */
export function listOf(value: Json | undefined): Record<string, Json>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

export function isRecord(value: Json | undefined): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The panel that looks up one merchant or order by its ID (`shown`, "" before any): its form hands
 * the trimmed ID to `onLookUp`; the look-up's error and the last decision's message show under it.
 */
export function LookUpPanel({
  noun,
  article,
  shown,
  placeholder,
  error,
  done,
  onLookUp,
  onRefresh,
  children,
}: {
  noun: string;
  article: 'a' | 'an';
  shown: string;
  placeholder: string;
  error: string | undefined;
  done: string | undefined;
  onLookUp: (id: string) => void;
  onRefresh: () => void;
  children?: ComponentChildren;
}): JSX.Element {
  const [typed, setTyped] = useState(shown);
  const title = `Look up ${article} ${noun}`;
  return (
    <Panel title={title} actions={shown === '' ? undefined : <button type="button" onClick={onRefresh}>{`Refresh ${noun}`}</button>}>
      <Form label={title} onSubmit={() => onLookUp(typed.trim())}>
        <Field label={`${noun[0].toUpperCase()}${noun.slice(1)} ID`} value={typed} onInput={setTyped} placeholder={placeholder} required />
        <div class="buttons">
          <button type="submit" class="primary">
            {`Look up ${noun}`}
          </button>
        </div>
      </Form>
      <ErrorLine error={error} />
      <DoneLine done={done} />
      {children}
    </Panel>
  );
}
