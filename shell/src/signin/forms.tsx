import { useRef, useState, type AnchorHTMLAttributes, type FormEvent, type ReactNode } from 'react';
import { followInApp } from './router';

/**
 * The signed-out pages' form kit: the console's form rules (shared-ui's useConsoleForm over yup) done
 * by hand, with the same messages, so this entry carries neither yup nor react-hook-form nor antd.
 * Values are trimmed as yup's `string().trim()` did, both for the checks and for what is sent.
 */

/** The one message of every required field (shared-ui's REQUIRED, specification §5). */
export const REQUIRED = 'is required';

/** yup's email pattern, so an address the console's forms accept is accepted here and vice versa. */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function requiredEmail(value: string): string | undefined {
  if (value === '') return REQUIRED;
  return EMAIL.test(value) ? undefined : 'is not a valid email';
}

export const required = (value: string): string | undefined => (value === '' ? REQUIRED : undefined);

export type Values<K extends string> = Record<K, string>;
/** The first problem of each field, given every (trimmed) value. */
export type Rules<K extends string> = Record<K, (value: string, all: Values<K>) => string | undefined>;

function trimmed<K extends string>(values: Values<K>): Values<K> {
  return Object.fromEntries(Object.entries<string>(values).map(([k, v]) => [k, v.trim()])) as Values<K>;
}

function problems<K extends string>(rules: Rules<K>, values: Values<K>): Partial<Record<K, string>> {
  const clean = trimmed(values);
  const found: Partial<Record<K, string>> = {};
  for (const name of Object.keys(rules) as K[]) {
    const problem = rules[name](clean[name], clean);
    if (problem) found[name] = problem;
  }
  return found;
}

/**
 * A field's problem shows once the field was left (touched) or a submit was tried, as in the console.
 * `submit` runs `onValid` only with valid values and keeps the button busy while it runs.
 */
export function useSignedOutForm<K extends string>(initial: Values<K>, rules: Rules<K>) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false);
  const errors = problems(rules, values);
  const shown = (name: K) => (touched[name] || submitted ? errors[name] : undefined);

  const field = (name: K) => ({
    name,
    value: values[name],
    error: shown(name),
    onChange: (value: string) => setValues((v) => ({ ...v, [name]: value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
  });

  const submit = (onValid: (values: Values<K>) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    setSubmitted(true);
    const invalid = (Object.keys(rules) as K[]).find((name) => errors[name]);
    if (invalid) {
      event.currentTarget.querySelector<HTMLInputElement>(`#${invalid}`)?.focus();
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      await onValid(trimmed(values));
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  };

  return { field, submit, submitting };
}

interface FieldProps {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A labelled input; its message is tied to it (aria-describedby) and marks it invalid. */
export function Field({ name, label, value, error, onChange, onBlur, type = 'text', autoComplete, autoFocus }: FieldProps) {
  const help = `${name}_help`;
  return (
    <div className="cw-field">
      <label className="cw-label" htmlFor={name}>
        {label}
      </label>
      <input
        className="cw-input"
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        // The page's one task: its first field takes the keyboard, as it did in the console.
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? help : undefined}
      />
      {error && (
        <div className="cw-help" id={help}>
          {error}
        </div>
      )}
    </div>
  );
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button className="cw-btn cw-btn-primary cw-btn-block" type="submit" aria-busy={busy || undefined}>
      {busy && <span className="cw-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

const ErrorIcon = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
    <circle cx="8" cy="8" r="8" fill="currentColor" />
    <path d="M5.5 5.5l5 5m0-5l-5 5" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
  </svg>
);

/** The call's failure, announced (role=alert) above the fields. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="cw-alert" role="alert">
      <ErrorIcon />
      <span>{message}</span>
    </div>
  );
}

/** A link to another signed-out page: followed without reloading. */
export function PageLink({ href, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a className="cw-link" href={href} onClick={followInApp} {...rest}>
      {children}
    </a>
  );
}

/** A page's outcome (antd Result's shape): an icon, a title, a line, and where to go next. */
export function Outcome({ icon, tone, title, subTitle, extra }: { icon: ReactNode; tone?: 'warning'; title: string; subTitle: string; extra: ReactNode }) {
  return (
    <div className="cw-result">
      <div className={tone === 'warning' ? 'cw-result-icon cw-warning' : 'cw-result-icon'}>{icon}</div>
      <h1 className="cw-result-title">{title}</h1>
      <p className="cw-result-subtitle">{subTitle}</p>
      <div className="cw-result-extra">{extra}</div>
    </div>
  );
}
