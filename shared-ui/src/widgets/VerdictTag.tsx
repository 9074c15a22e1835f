import { Tag } from 'antd';

/**
 * A finding's verdict as a tag, coloured as the console colours it everywhere: OK green and NOK red
 * (as StatusTag, specification §4), what needs fixing red (ERROR, MISSING, WRONG, Critical and Major
 * alarms), what needs a look amber (WARNING, EXTRA, Minor, NO_LAYER, UNRESOLVED), anything else
 * neutral. The text stays the verdict itself, so colour is never the only cue.
 */

const RED: ReadonlySet<string> = new Set(['NOK', 'ERROR', 'MISSING', 'WRONG', 'CRITICAL', 'MAJOR']);
const AMBER: ReadonlySet<string> = new Set(['WARNING', 'EXTRA', 'MINOR', 'NO_LAYER', 'UNRESOLVED']);

export type VerdictColour = 'green' | 'red' | 'orange' | undefined;

export function verdictColour(verdict: string | null | undefined): VerdictColour {
  const v = (verdict ?? '').trim().toUpperCase();
  if (v === 'OK') return 'green';
  if (RED.has(v) || v.startsWith('MISSING_')) return 'red';
  if (AMBER.has(v)) return 'orange';
  return undefined;
}

export function VerdictTag({ value }: { value: string | number | null | undefined }) {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  return (
    <Tag color={verdictColour(text)} style={{ marginInlineEnd: 0 }}>
      {text}
    </Tag>
  );
}
