/**
 * The few pieces every screen is made of: a labelled field, a form that shows the service's refusal
 * (and each refused field under its input), and the states of a query. Labels are real `<label>`s,
 * hints and errors are tied to their input by `aria-describedby`, and a refusal is announced
 * (`role="alert"`) and takes the focus so a keyboard or screen-reader user hears it.
 */
import type { UseQueryResult } from '@tanstack/preact-query';
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from './api.ts';
import { useI18n } from './i18n.tsx';
import type { MessageKey } from './messages.ts';

type InputProps = JSX.InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  hint?: string;
  error?: string | undefined;
  optional?: boolean;
};

let fieldCount = 0;

/** A labelled input; `name` is the API field, so a refusal of that field shows here. */
export function Field({ label, name, hint, error, optional = false, id, ...input }: InputProps) {
  const { t } = useI18n();
  const fieldId = useRef(typeof id === 'string' ? id : `f-${name}-${++fieldCount}`).current;
  const described = [hint ? `${fieldId}-hint` : '', error ? `${fieldId}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class="field">
      <label for={fieldId}>
        {label}
        {optional ? <span class="muted"> {t('optional')}</span> : null}
      </label>
      <input
        id={fieldId}
        name={name}
        required={!optional}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint ? (
        <p class="hint" id={`${fieldId}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${fieldId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The `error.reason`s the console says in the person's language; others show the service's message. */
const REASONS = ['slug_taken', 'already_member', 'already_invited', 'already_published'] as const;

/** The refusal of a field (`error.fields`), by its API name. */
export function fieldError(error: unknown, name: string): string | undefined {
  // A refusal the notice above says in the person's language is not said again in English.
  if (!(error instanceof ApiError) || REASONS.some((known) => known === error.reason)) return undefined;
  return error.fields.find((field) => field.field === name || field.field === `body.${name}`)?.message;
}

/** A list's search box: a part of a name or an e-mail, optional, sent as `q`. */
export function SearchField({ id }: { id: string }) {
  const { t } = useI18n();
  return (
    <Field
      id={id}
      label={t('search')}
      name="q"
      type="search"
      optional
      maxLength={100}
      autoComplete="off"
      hint={t('searchHint')}
    />
  );
}

/** A message that takes the focus when it appears: a refusal (`alert`) or a confirmation (`status`). */
export function Notice({ kind, children }: { kind: 'error' | 'ok'; children: ComponentChildren }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** A refusal in words: its reason's, the role's (403), not found (404, or `notFound`), else the service's message. */
export function ErrorNotice({ error, notFound }: { error: unknown; notFound?: MessageKey }) {
  const { t } = useI18n();
  if (error === null || error === undefined) return null;
  const reason = error instanceof ApiError ? REASONS.find((known) => known === error.reason) : undefined;
  let message: string;
  if (reason !== undefined) message = t(`reason_${reason}`);
  else if (error instanceof ApiError && error.status === 403) message = t('forbidden');
  else if (error instanceof ApiError && error.status === 404) message = t(notFound ?? 'notFound');
  else message = t('failed', { message: error instanceof Error ? error.message : String(error) });
  return <Notice kind="error">{message}</Notice>;
}

/** What a screen shows of a query that is not ready: loading, or its error with a retry. */
export function Pending({ query }: { query: UseQueryResult<unknown> }) {
  const { t } = useI18n();
  if (query.isError) {
    return (
      <div>
        <ErrorNotice error={query.error} />
        <button type="button" class="secondary" onClick={() => query.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  }
  return (
    <p class="muted" role="status">
      {t('loading')}
    </p>
  );
}

/** The fields of a submitted form, by name: empty strings as absent. */
export function formValues(event: JSX.TargetedEvent<HTMLFormElement>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(event.currentTarget)) {
    if (typeof value === 'string') values[name] = value.trim();
  }
  return values;
}

/** A value the API takes as "none": an empty optional field is sent as null. */
export const orNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);

/** `values` without its empty fields: what a create sends (absent is the API's default). */
export function withoutEmpty<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== '' && value !== null && value !== undefined),
  ) as Partial<T>;
}
