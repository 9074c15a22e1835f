import { yupResolver } from '@hookform/resolvers/yup';
import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import {
  Controller,
  useForm,
  type Control,
  type ControllerRenderProps,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
} from 'react-hook-form';
import * as yup from 'yup';

/** The one message of every required field (specification §5). */
export const REQUIRED = 'is required';

export const required = () => yup.string().trim().required(REQUIRED);

/**
 * A form of required text fields, each at most so many characters (e.g. `{ note: 1000 }`), for areas
 * whose forms need nothing else.
 */
export function requiredTexts<K extends string>(limits: Record<K, number>): yup.ObjectSchema<Record<K, string>> {
  const shape = Object.fromEntries(
    (Object.entries(limits) as Array<[K, number]>).map(([name, max]) => [name, required().max(max, `must be at most ${max} characters`)]),
  );
  return yup.object(shape) as unknown as yup.ObjectSchema<Record<K, string>>;
}

/**
 * Every form of the console: react-hook-form validated by a yup schema. Errors appear once a field
 * is touched (or after a submit attempt); `handleSubmit` never calls the handler while invalid.
 */
export function useConsoleForm<T extends FieldValues>(schema: yup.ObjectSchema<T>, defaultValues: DefaultValues<T>) {
  return useForm<T>({
    resolver: yupResolver(schema) as unknown as Resolver<T>,
    mode: 'all',
    defaultValues,
  });
}

/** What every field takes. */
export interface FieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  autoComplete?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

function FieldFrame({ label, error, children, htmlFor }: { label: string; error?: string; children: ReactNode; htmlFor: string }) {
  return (
    <Form.Item label={label} htmlFor={htmlFor} validateStatus={error ? 'error' : undefined} help={error} style={{ marginBottom: 16 }}>
      {children}
    </Form.Item>
  );
}

/**
 * A form field: the Controller wiring and the error-once-touched rule live here once; each kind of
 * field only says how to draw its input. Fields drawing heavier antd inputs (Select) and the dialog
 * frame live in modules of their own (SelectField.tsx, FormDialog.tsx), so a page with a text form
 * does not load them (issue 48: operator details' name form loaded Select and Modal).
 */
export function ControlledField<T extends FieldValues>({
  control,
  name,
  label,
  input,
}: FieldProps<T> & { input: (field: ControllerRenderProps<T, FieldPath<T>>) => ReactNode }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState, formState }) => (
        <FieldFrame label={label} htmlFor={name} error={fieldState.isTouched || formState.isSubmitted ? fieldState.error?.message : undefined}>
          {input(field)}
        </FieldFrame>
      )}
    />
  );
}

export function TextField<T extends FieldValues>(props: FieldProps<T> & { type?: 'text' | 'email' }) {
  const { name, autoComplete, disabled, autoFocus, type } = props;
  return (
    <ControlledField
      {...props}
      input={(field) => (
        <Input
          id={name}
          type={type ?? 'text'}
          autoComplete={autoComplete}
          disabled={disabled}
          autoFocus={autoFocus}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

/** Several lines of text (a note, a hint); Enter adds a line, so Save submits. */
export function TextAreaField<T extends FieldValues>(props: FieldProps<T> & { rows?: number; maxLength?: number }) {
  const { name, disabled, autoFocus, rows = 4, maxLength } = props;
  return (
    <ControlledField
      {...props}
      input={(field) => (
        <Input.TextArea
          id={name}
          rows={rows}
          maxLength={maxLength}
          showCount={maxLength !== undefined}
          disabled={disabled}
          autoFocus={autoFocus}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

export function PasswordField<T extends FieldValues>(props: FieldProps<T>) {
  const { name, autoComplete, autoFocus } = props;
  return (
    <ControlledField
      {...props}
      input={(field) => (
        <Input.Password
          id={name}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
