import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Form, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import type { FrequencyPlan, OperatorSummary, SaveFrequencyPlanRequest } from 'contracts';
import { api } from 'shared-auth';
import { DataTable, Note, useApiGet, type DataColumn } from 'shared-ui';
import { LTE_BANDS, type LteBand } from './lteBands';

/**
 * The operators' frequency plans (which n78 block and which LTE carriers each operator owns): every
 * planner reads them, Administrators add and edit them. The API checks the values against the 3GPP
 * rasters; the form checks the same ranges first so a slip is said at once.
 */

/** DL EARFCN ranges of the bands (TS 36.101 Table 5.7.3-1: bands 28, 20, 3, 1). */
export const EARFCN_RANGES: Record<LteBand, readonly [number, number]> = {
  L700: [9210, 9659],
  L800: [6150, 6449],
  L1800: [1200, 1949],
  L2100: [0, 599],
};

/** n78 channel raster with 30 kHz SCS (TS 38.104 Table 5.4.2.3-1): 620000–653332, even. */
const NR_ARFCN_RANGE = [620000, 653332] as const;
/** NR channel bandwidths with 30 kHz SCS (TS 38.104 Table 5.3.2-1), MHz. */
export const NR_BANDWIDTHS = [10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100] as const;

/** Centre frequency of an n78 NR-ARFCN in MHz (F_REF = 3000 MHz + 15 kHz · (N − 600000)). */
export function nrArfcnMHz(nrArfcn: number): number {
  return (3_000_000 + 15 * (nrArfcn - 600_000)) / 1000;
}

type PlanRow = FrequencyPlan & { block?: undefined; actions?: undefined } & Partial<Record<LteBand, number>>;

function blockOf(plan: FrequencyPlan): string {
  const centre = nrArfcnMHz(plan.nrArfcn);
  const half = plan.nrBandwidthMhz / 2;
  return `${(centre - half).toFixed(2)}–${(centre + half).toFixed(2)} MHz`;
}

interface PlanForm {
  operatorId: number;
  nrArfcn: number;
  nrBandwidthMhz: number;
  L700?: number | null;
  L800?: number | null;
  L1800?: number | null;
  L2100?: number | null;
}

function PlanDialog({
  plan,
  operators,
  onClose,
  onSaved,
}: {
  plan: FrequencyPlan | null;
  operators: Array<{ value: number; label: string }>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { notification } = App.useApp();
  const [form] = Form.useForm<PlanForm>();
  const [saving, setSaving] = useState(false);
  const initial: Partial<PlanForm> = plan
    ? { operatorId: plan.operatorId, nrArfcn: plan.nrArfcn, nrBandwidthMhz: plan.nrBandwidthMhz, ...plan.lteCarriers }
    : { nrBandwidthMhz: 100 };

  const save = async (values: PlanForm) => {
    const lteCarriers: SaveFrequencyPlanRequest['lteCarriers'] = {};
    for (const band of LTE_BANDS) {
      const value = values[band];
      if (typeof value === 'number') lteCarriers[band] = value;
    }
    const body: SaveFrequencyPlanRequest = { operatorId: values.operatorId, nrArfcn: values.nrArfcn, nrBandwidthMhz: values.nrBandwidthMhz, lteCarriers };
    setSaving(true);
    try {
      const { data } = await api.post<FrequencyPlan>('Parameters/SaveFrequencyPlan', body);
      notification.success({ title: `Frequency plan of ${data.operatorName} saved.` });
      onSaved();
      onClose();
    } catch {
      // The API client has said why; the dialog stays open with the values.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={plan ? `Frequency plan of ${plan.operatorName}` : 'Add frequency plan'}
      onCancel={onClose}
      destroyOnHidden
      okText="Save"
      okButtonProps={{ loading: saving, htmlType: 'submit', form: 'frequency-plan-form' }}
    >
      <Form<PlanForm> id="frequency-plan-form" form={form} layout="vertical" initialValues={initial} onFinish={(v) => void save(v)}>
        <Form.Item label="Operator" name="operatorId" rules={[{ required: true, message: 'is required' }]}>
          <Select aria-label="Operator" disabled={plan !== null} options={operators} placeholder="Choose an operator" />
        </Form.Item>
        <Form.Item
          label="n78 NR-ARFCN (carrier centre)"
          name="nrArfcn"
          extra="On the 30 kHz channel raster: an even number from 620000 to 653332."
          rules={[
            { required: true, message: 'is required' },
            {
              validator: async (_rule, value: number | null) => {
                if (value === null || value === undefined) return;
                if (!Number.isInteger(value) || value < NR_ARFCN_RANGE[0] || value > NR_ARFCN_RANGE[1] || value % 2 !== 0) {
                  throw new Error('must be an even NR-ARFCN from 620000 to 653332');
                }
              },
            },
          ]}
        >
          <InputNumber aria-label="NR-ARFCN" style={{ width: '100%' }} precision={0} />
        </Form.Item>
        <Form.Item label="Bandwidth (MHz)" name="nrBandwidthMhz" rules={[{ required: true, message: 'is required' }]}>
          <Select aria-label="Bandwidth" options={NR_BANDWIDTHS.map((b) => ({ value: b, label: `${b} MHz` }))} />
        </Form.Item>
        <Note>LTE carriers (DL EARFCN), one per band the operator owns:</Note>
        {LTE_BANDS.map((band) => {
          const [low, high] = EARFCN_RANGES[band];
          return (
            <Form.Item
              key={band}
              label={`${band} EARFCN`}
              name={band}
              rules={[
                {
                  validator: async (_rule, value: number | null) => {
                    if (value === null || value === undefined) return;
                    if (!Number.isInteger(value) || value < low || value > high) throw new Error(`must be from ${low} to ${high}`);
                  },
                },
              ]}
            >
              <InputNumber aria-label={`${band} EARFCN`} style={{ width: '100%' }} precision={0} placeholder={`${low}–${high}`} />
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}

/** The plans of every operator; `canEdit` (Administrators) adds Add and Edit. */
export function FrequencyPlansDrawer({ open, onClose, canEdit }: { open: boolean; onClose: () => void; canEdit: boolean }) {
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<FrequencyPlan | 'new' | null>(null);
  const plans = useApiGet<FrequencyPlan[]>(open ? 'Parameters/GetFrequencyPlans' : null, [], version);
  // Operators come from management (Administrators only): those without a plan can be given one.
  const operators = useApiGet<OperatorSummary[]>(open && canEdit ? 'Operators/GetOperators' : null, [], version);

  const rows: PlanRow[] = plans.data.map((p) => ({ ...p, ...p.lteCarriers }));
  const columns: Array<DataColumn<PlanRow>> = [
    { key: 'operatorName', title: 'Operator' },
    { key: 'nrArfcn', title: 'NR-ARFCN', kind: 'number' },
    { key: 'nrBandwidthMhz', title: 'Bandwidth (MHz)', kind: 'number' },
    { key: 'block', title: 'n78 Block', render: (row) => blockOf(row), filter: false },
    ...LTE_BANDS.map((band): DataColumn<PlanRow> => ({ key: band, title: `${band} EARFCN`, kind: 'number' })),
    { key: 'updatedAt', title: 'Updated At', kind: 'date' },
    ...(canEdit
      ? [
          {
            key: 'actions' as const,
            title: 'Actions',
            filter: false,
            render: (row: PlanRow) => (
              <Button size="small" icon={<EditOutlined />} aria-label={`Edit the plan of ${row.operatorName}`} onClick={() => setEditing(row)}>
                Edit
              </Button>
            ),
          },
        ]
      : []),
  ];
  const withPlan = new Set(plans.data.map((p) => p.operatorId));
  const options = operators.data.filter((o) => !withPlan.has(o.id)).map((o) => ({ value: o.id, label: o.name }));

  return (
    <Drawer
      title="Frequency plans"
      open={open}
      onClose={onClose}
      size={1100}
      extra={
        canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} disabled={operators.loading || options.length === 0}>
            Add plan
          </Button>
        ) : null
      }
    >
      <Note paragraph>
        A parameter planning uses the plan of your current operator: its n78 carrier for the NR cells, its EARFCNs to check the LTE anchors.
        {canEdit ? '' : ' Administrators edit the plans.'}
      </Note>
      <DataTable
        tableKey="planning.frequencyPlans"
        caption="Operators' frequency plans"
        columns={columns}
        rows={rows}
        loading={plans.loading}
        rowKey="operatorName"
        emptyText="No frequency plan yet: an Administrator adds one per operator."
      />
      {editing !== null && (
        <PlanDialog
          plan={editing === 'new' ? null : editing}
          operators={editing === 'new' ? options : [{ value: editing.operatorId, label: editing.operatorName }]}
          onClose={() => setEditing(null)}
          onSaved={() => setVersion((v) => v + 1)}
        />
      )}
    </Drawer>
  );
}
