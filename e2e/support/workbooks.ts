import { COMMISSIONING_PLAN_IMPORT_FIELDS } from 'contracts';

// Field names of the specification (§3) as the API's contract lists them (its row schema's): workbook headers.
export const PLAN_FIELDS: string[] = [...COMMISSIONING_PLAN_IMPORT_FIELDS];
