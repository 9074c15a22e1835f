import { Tag } from 'antd';

/**
 * A monitoring verdict as a tag: OK green, NOK red (specification §3), anything else (N/A, empty) neutral.
 * The text stays the verdict itself, so colour is never the only cue.
 */
export function StatusTag({ value }: { value: string | null | undefined }) {
  const text = value == null || value === '' ? 'N/A' : value;
  const color = text === 'OK' ? 'green' : text === 'NOK' ? 'red' : undefined;
  return (
    <Tag color={color} style={{ marginInlineEnd: 0 }}>
      {text}
    </Tag>
  );
}
