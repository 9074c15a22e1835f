import { Select } from 'antd';
import type { FieldValues } from 'react-hook-form';
import { ControlledField, type FieldProps } from './forms';

/** A choice among options (one, or several with mode 'multiple'), wired like every field of forms.tsx. */
export function SelectField<T extends FieldValues>(props: FieldProps<T> & { options: Array<{ value: string | number; label: string }>; mode?: 'multiple' }) {
  const { name, disabled, options, mode } = props;
  return (
    <ControlledField
      {...props}
      input={(field) => (
        <Select
          id={name}
          mode={mode}
          disabled={disabled}
          options={options}
          value={field.value as unknown}
          onChange={(value) => field.onChange(value)}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
