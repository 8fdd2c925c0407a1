/** Small pieces every console section uses: labelled fields, loading, actions and their messages. */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { TableHead } from '../shared/table-head.js';
import { ApiError } from './api.js';

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.text;
  return error instanceof Error ? error.message : String(error);
}

/** A list or document read from the API, with its error and a reload. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): { data: T | undefined; error: string | undefined; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(errorText(failure));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, loading, reload };
}

/** One operator action at a time per form: busy while it runs, then its message or the server's error. */
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  done: string | undefined;
  run: (action: () => Promise<string | undefined>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(async (action: () => Promise<string | undefined>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const message = await action();
      if (mounted.current) setDone(message);
      return true;
    } catch (failure) {
      if (mounted.current) setError(errorText(failure));
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);
  const clear = useCallback(() => {
    setError(undefined);
    setDone(undefined);
  }, []);
  return { busy, error, done, run, clear };
}

export function ErrorLine({ error }: { error: string | undefined }): JSX.Element | null {
  return error === undefined ? null : (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

export function DoneLine({ done }: { done: string | undefined }): JSX.Element | null {
  return done === undefined ? null : (
    <p class="done" role="status">
      {done}
    </p>
  );
}

interface FieldProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'email';
  /** The keyboard a phone shows: digits for a count; the text is still sent as typed. */
  inputMode?: 'numeric' | 'decimal';
  placeholder?: string;
  hint?: string;
  required?: boolean;
  list?: string;
  autoComplete?: string;
  wide?: boolean;
}

/** A text input named by its visible label (its hint is a description, not part of the name); the value is kept as the typed text. */
export function Field({ label, value, onInput, type = 'text', inputMode, placeholder, hint, required, list, autoComplete = 'off', wide }: FieldProps): JSX.Element {
  const id = useId();
  return (
    <div class={wide === true ? 'field wide' : 'field'}>
      <label class="label" for={id}>
        {label}
        {required === true ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        type={type}
        inputMode={inputMode}
        value={value}
        placeholder={placeholder}
        aria-required={required === true ? 'true' : undefined}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        list={list}
        autoComplete={autoComplete}
        spellcheck={false}
        onInput={(event) => onInput((event.currentTarget as HTMLInputElement).value)}
      />
      {hint === undefined ? null : (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

/** A switch: a checkbox laid out and named as a Field is (label above, hint below), its state in words beside it. */
export function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }): JSX.Element {
  const id = useId();
  return (
    <div class="field">
      <label class="label" for={id}>
        {label}
      </label>
      <span class="toggle">
        <input id={id} type="checkbox" checked={checked} aria-describedby={hint === undefined ? undefined : `${id}-hint`} onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)} />
        <span aria-hidden="true">{checked ? 'On' : 'Off'}</span>
      </span>
      {hint === undefined ? null : (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

/** A drop-down; an option is `[value, text]`, or a lone string shown as it is sent. */
export function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (value: string) => void; options: readonly (string | readonly [string, string])[] }): JSX.Element {
  return (
    <label class="field">
      <span class="label">{label}</span>
      <select value={value} onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}>
        {options.map((option) => {
          const [v, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

export function Panel({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }): JSX.Element {
  return (
    <section class="panel" aria-label={title}>
      <header class="panel-head">
        <h2>{title}</h2>
        {actions === undefined ? null : <div class="panel-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** A form whose submit runs `onSubmit` without reloading the page. */
export function Form({ label, onSubmit, children }: { label: string; onSubmit: () => void; children: ComponentChildren }): JSX.Element {
  return (
    <form
      class="form"
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A form's text fields kept as one record: `set('name')` is the `onInput` of the field named so. */
export function useFields<T extends Record<string, string>>(
  initial: T,
): { form: T; set: (name: keyof T) => (value: string) => void; setForm: (next: T | ((form: T) => T)) => void } {
  const [form, setForm] = useState(initial);
  const set = (name: keyof T) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  return { form, set, setForm };
}

/**
 * A panel holding one form and its submit button: the submit runs `onSubmit` as an operator action, then its
 * message or the server's error shows under the form. `before` goes above the form (a note, datalists).
 */
export function ActionForm({
  title,
  submit,
  primary = true,
  onSubmit,
  before,
  children,
}: {
  title: string;
  submit: string;
  primary?: boolean;
  onSubmit: () => Promise<string | undefined>;
  before?: ComponentChildren;
  children: ComponentChildren;
}): JSX.Element {
  const action = useAction();
  return (
    <Panel title={title}>
      {before}
      <Form label={title} onSubmit={() => void action.run(onSubmit)}>
        {children}
        <div class="buttons">
          <button type="submit" class={primary ? 'primary' : undefined} disabled={action.busy}>
            {submit}
          </button>
        </div>
      </Form>
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
    </Panel>
  );
}

/**
 * The buttons under an edited document whose changed members alone are sent: save (off while the
 * save runs or nothing changed), an optional undo, and how many members changed.
 */
export function SaveButtons({ busy, changed, save, undo }: { busy: boolean; changed: number; save: string; undo?: { label: string; onClick: () => void } }): JSX.Element {
  return (
    <div class="buttons">
      <button type="submit" class="primary" disabled={busy || changed === 0}>
        {save}
      </button>
      {undo === undefined ? null : (
        <button type="button" disabled={changed === 0} onClick={undo.onClick}>
          {undo.label}
        </button>
      )}
      <span class="muted" aria-live="polite">
        {changed === 0 ? 'No changes.' : `${changed} changed.`}
      </span>
    </div>
  );
}

/** A button that runs `run` as `action` (off while any of its actions runs): a row's own action, in a table. */
export function RunButton({
  action,
  run,
  class: className,
  pressed,
  children,
}: {
  action: { busy: boolean; run: (action: () => Promise<string | undefined>) => Promise<boolean> };
  run: () => Promise<string | undefined>;
  class?: string;
  pressed?: boolean;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <button type="button" class={className} aria-pressed={pressed} disabled={action.busy} onClick={() => void action.run(run)}>
      {children}
    </button>
  );
}

/** A table that scrolls sideways on a narrow screen rather than squeezing its columns. */
export function Table({ label, head, children, empty }: { label: string; head: readonly string[]; children: ComponentChildren; empty?: boolean }): JSX.Element {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>
        <TableHead columns={head} />
        <tbody>
          {children}
          {empty === true ? (
            <tr>
              <td colSpan={head.length} class="empty">
                None.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** Only the members the operator filled in: an empty field means "the server's default". */
export function filled(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** A list typed as text: comma, space or newline separated. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/u).filter((item) => item !== '');
}
