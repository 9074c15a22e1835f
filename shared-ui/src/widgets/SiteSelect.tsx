import { Select } from 'antd';
import { useEffect, useState } from 'react';

export interface SiteOption {
  value: string;
  text: string;
}

/** Site autocomplete is limited to 20 options (specification §5); the server filters by the typed text. */
export const SITE_OPTION_LIMIT = 20;

export interface SiteSelectProps {
  multiple?: boolean;
  value?: string | string[];
  onChange?: (value: string | string[]) => void;
  /** Asks the server for sites matching the typed text. Without it the select stays disabled. */
  source?: (query: string) => Promise<SiteOption[]>;
  placeholder?: string;
  style?: React.CSSProperties;
  /** Held, as the page's other controls are, while a run of the chosen sites is in flight. */
  disabled?: boolean;
}

export function SiteSelect({ multiple, value, onChange, source, placeholder, style, disabled = false }: SiteSelectProps) {
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<SiteOption[]>([]);
  useEffect(() => {
    if (!source) return;
    let live = true;
    const timer = setTimeout(() => {
      source(query)
        .then((found) => live && setOptions(found.slice(0, SITE_OPTION_LIMIT)))
        .catch(() => live && setOptions([]));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, source]);
  return (
    <Select
      aria-label={multiple ? 'Sites' : 'Site'}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setQuery }}
      disabled={disabled || !source}
      value={value}
      onChange={onChange}
      placeholder={placeholder ?? (multiple ? 'Select sites' : 'Select a site')}
      options={options.map((o) => ({ value: o.value, label: o.text }))}
      style={{ minWidth: 'min(280px, 100%)', ...style }}
    />
  );
}
