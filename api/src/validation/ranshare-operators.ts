/**
 * Which operator a PLMN (`mcc-mnc`) belongs to, for the RAN-share validation's "shared with whom".
 *
 * Kept as data in code rather than a table: PLMN codes are assigned by the national regulator (ANACOM
 * for Portugal, MCC 268) and change about never, no page edits them, and the dump already carries the
 * codes themselves, so a code missing here still validates and reads `PLMN 268-99`. Adding an operator
 * is one line here.
 */
export const PLMN_OPERATORS: Readonly<Record<string, string>> = {
  '268-01': 'Vodafone PT',
  '268-03': 'NOS',
  '268-06': 'MEO',
};

/** The operator's name, or `PLMN <code>` for a code nobody mapped. */
export function operatorOfPlmn(plmn: string): string {
  return PLMN_OPERATORS[plmn] ?? `PLMN ${plmn}`;
}
