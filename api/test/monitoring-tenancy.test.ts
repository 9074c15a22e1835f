import type { AlarmPage, FaultSummaryPage, OverallSiteSummaryPage, ParseHistoryPage, ParseResponse, UserInfo } from 'contracts';
import { runInOperator } from '../src/db/operator-scope';
import { TEST_DATABASES } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';
import { parsingApp } from './support/parsing';
import { MAJOR_ON_LX0001 } from './fixtures/monitoring/archives';
import { lteNodeLog } from './fixtures/monitoring/logs';

/*
 * Issue 42 (docs/tenancy.md): a log whose node the current operator's inventory does not know is kept as
 * 'not in inventory' under that operator, never attached to another operator's node of the same name,
 * and each operator's monitoring lists, acknowledgements and parse history are its own.
 */
describe.each(TEST_DATABASES)('monitoring per operator on $name', (kind) => {
  const parsing = parsingApp(kind, ['LX0001']);
  let adminId = 0;
  let nos = 0;

  beforeAll(async () => {
    adminId = (await parsing.app.inject({ method: 'POST', url: '/api/account/GetUserInfo', headers: parsing.headers() })).json<UserInfo>().id;
    expect(adminId).toBeGreaterThan(0);
    nos = (await parsing.database.db.selectFrom('operators').select('id').where('name', '=', 'NOS').executeTakeFirstOrThrow()).id;
  });

  /** The administrator's current operator, as Settings would switch it. */
  const switchTo = (operatorId: number) => parsing.database.db.updateTable('users').set({ operator_id: operatorId }).where('id', '=', adminId).execute();
  const list = async <T>(route: string) => {
    const res = await parsing.get(`/api/Monitoring/${route}?size=100`);
    expect(res.statusCode).toBe(200);
    return res.json<T>();
  };
  const parseAs = async (operatorId: number) => {
    await switchTo(operatorId);
    const res = await parsing.parse({ 'LX0001.log': lteNodeLog('LX0001', { alarms: [MAJOR_ON_LX0001] }) });
    expect(res.statusCode).toBe(200);
    return res.json<ParseResponse>();
  };

  it("keeps another operator's log of a node of the same name as not in inventory, apart from the first operator's", async () => {
    const first = await parseAs(TEST_OPERATOR_ID);
    expect(first.counts).toMatchObject({ parsed: 1, notInInventory: 0 });
    const [alarm] = (await list<AlarmPage>('GetFaultManagement')).rows;
    expect(alarm).toMatchObject({ nodeName: 'LX0001', siteName: 'Site LX0001' });
    const ack = await parsing.app.inject({
      method: 'POST',
      url: '/api/Monitoring/AcknowledgeAlarm',
      headers: parsing.headers(),
      payload: { alarmId: alarm!.id, note: 'first operator saw it' },
    });
    expect(ack.statusCode).toBe(200);

    const second = await parseAs(nos);
    expect(second.counts).toMatchObject({ notInInventory: 1 });
    const nodes = (await list<FaultSummaryPage>('GetFaultManagementSummary')).rows;
    expect(nodes).toEqual([expect.objectContaining({ nodeName: 'LX0001', siteId: 'LX0001', siteName: null, remarks: 'Not in inventory' })]);
    const alarms = (await list<AlarmPage>('GetFaultManagement')).rows;
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ siteName: null, acknowledged: 'No', ackNote: null });
    expect((await list<OverallSiteSummaryPage>('GetOverallSiteSummary')).total).toBe(1);
    const history = (await parsing.get('/api/Parser/GetParseHistory?size=100')).json<ParseHistoryPage>();
    expect(history.rows.map((r) => r.id)).toEqual([second.parseId]);
    // The first operator's alarm is not the second's to acknowledge: not found in its scope.
    const foreign = await parsing.app.inject({
      method: 'POST',
      url: '/api/Monitoring/AcknowledgeAlarm',
      headers: parsing.headers(),
      payload: { alarmId: alarm!.id, note: 'not mine' },
    });
    expect(foreign.statusCode).toBe(404);

    // The first operator's node, alarm and acknowledgement are as they were.
    await switchTo(TEST_OPERATOR_ID);
    expect((await list<FaultSummaryPage>('GetFaultManagementSummary')).rows).toEqual([
      expect.objectContaining({ nodeName: 'LX0001', siteName: 'Site LX0001', remarks: '' }),
    ]);
    expect((await list<AlarmPage>('GetFaultManagement')).rows).toEqual([
      expect.objectContaining({ id: alarm!.id, acknowledged: 'Yes', ackNote: 'first operator saw it' }),
    ]);
    const stored = await runInOperator(nos, () =>
      parsing.database.db.selectFrom('monitoring_nodes').select(['node_name', 'in_inventory', 'parse_id']).execute(),
    );
    expect(stored).toEqual([{ node_name: 'LX0001', in_inventory: 0, parse_id: second.parseId }]);
  });
});
