import { Type } from '@sinclair/typebox';
import { fieldsOf, RUN_HISTORY_FIELDS, RunHistoryRow, TRACKER_FIELDS, TrackerRow } from 'contracts';

describe('field lists are their row schemas (issue 49)', () => {
  test('fieldsOf lists the properties in declaration order, less the ones that are no column', () => {
    const Row = Type.Object({ id: Type.Integer(), b: Type.String(), a: Type.String(), hidden: Type.Boolean() });
    expect(fieldsOf(Row)).toEqual(['id', 'b', 'a', 'hidden']);
    expect(fieldsOf(Row, ['id', 'hidden'])).toEqual(['b', 'a']);
  });

  test('a field added to a row schema is a column of its list (sorted, filtered, exported) without a second edit', () => {
    expect(TRACKER_FIELDS).toEqual(Object.keys(TrackerRow.properties).filter((f) => f !== 'id'));
    expect(RUN_HISTORY_FIELDS).toEqual(Object.keys(RunHistoryRow.properties).filter((f) => f !== 'hasFile'));
    expect(TRACKER_FIELDS[0]).toBe('localId');
  });
});
