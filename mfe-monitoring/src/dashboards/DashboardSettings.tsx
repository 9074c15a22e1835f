import { Alert, Button, Drawer, Flex, Form } from 'antd';
import { useEffect, useId, useState } from 'react';
import type { BiServer, DASHBOARD_MESSAGES, DashboardRecord, DashboardType, DashboardUpdate } from 'contracts';
import { api, errorMessage } from 'shared-auth';
import { Note, SelectField, TextField, required, requiredTexts, useApiGet, useConsoleForm, useToasts } from 'shared-ui';

/** The record's types, in the specification's order. */
export const DASHBOARD_TYPE_OPTIONS: ReadonlyArray<{ value: DashboardType; label: string }> = [
  { value: 'Tableau', label: 'Tableau' },
  { value: 'PowerBI', label: 'Power BI' },
];

/** The form's value for "no BI server": the page then draws the console's own charts. */
export const NO_SERVER = 'none';
export const NO_SERVER_LABEL = 'None — console charts';

/** The API's success message (typed by its constant, so the two cannot drift apart). */
export const DASHBOARD_UPDATED: (typeof DASHBOARD_MESSAGES)['updated'] = 'Dashboard updated!';

/** http is accepted for loopback hosts only (test servers), as the API accepts it. */
function isEmbeddableUrl(value: string | undefined): boolean {
  if (!value) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

const schema = requiredTexts({ type: 20, name: 200, serverId: 100 }).shape({
  // The URL matters only when a BI server embeds it; the console's own charts need none.
  url: required()
    .max(2000, 'must be at most 2000 characters')
    .test('https', 'must be an https:// address', isEmbeddableUrl)
    .when('serverId', { is: NO_SERVER, then: (s) => s.notRequired() }),
});

interface SettingsForm {
  type: string;
  name: string;
  serverId: string;
  url: string;
}

export interface DashboardSettingsProps {
  record: DashboardRecord;
  onClose: () => void;
  /** Called after the record was saved. */
  onSaved: (record: DashboardRecord) => void;
}

/**
 * The dashboard record, edited by Administrators (the page shows it only to them; the API refuses
 * everyone else): type, name, URL and which configured BI server embeds it. Mounted only while open,
 * so each opening starts from the record as it is. Refusals are said on the form.
 */
export function DashboardSettingsDrawer({ record, onClose, onSaved }: DashboardSettingsProps) {
  const toasts = useToasts();
  const formId = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const servers = useApiGet<{ data: BiServer[] }>('Dashboard/GetServers', { data: [] });
  const form = useConsoleForm(schema, { type: record.type, name: record.name, url: record.url, serverId: record.serverId ?? NO_SERVER });
  const type = form.watch('type');
  const serverId = form.watch('serverId');
  const { setValue } = form;

  const serversOfType = servers.data.data.filter((s) => s.type === type);
  // A server of the other type would be refused: choosing another type clears the choice.
  const chosenFits = serverId === NO_SERVER || serversOfType.some((s) => s.id === serverId);
  useEffect(() => {
    if (!servers.loading && !chosenFits) setValue('serverId', NO_SERVER, { shouldValidate: true });
  }, [servers.loading, chosenFits, setValue]);

  const save = form.handleSubmit(async (values: SettingsForm) => {
    setRefusal(null);
    const body: DashboardUpdate = {
      id: record.id,
      type: values.type as DashboardType,
      name: values.name.trim(),
      url: values.url.trim(),
      serverId: values.serverId === NO_SERVER ? null : values.serverId,
    };
    try {
      const { data } = await api.put<{ data: DashboardRecord }>('Dashboard/Update', body, { skipErrorHandling: true });
      toasts.success(DASHBOARD_UPDATED);
      onSaved(data.data);
    } catch (error) {
      setRefusal(errorMessage(error));
    }
  });

  const serverOptions = [{ value: NO_SERVER, label: NO_SERVER_LABEL }, ...serversOfType.map((s) => ({ value: s.id, label: `${s.name} (${s.origin})` }))];

  return (
    <Drawer
      open
      title="Dashboard settings"
      onClose={onClose}
      size={480}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" form={formId} loading={form.formState.isSubmitting}>
            Save
          </Button>
        </Flex>
      }
    >
      <Form id={formId} layout="vertical" component="form" onSubmitCapture={(e) => void save(e)}>
        {refusal !== null && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 16 }} data-testid="settings-refusal" />}
        <SelectField control={form.control} name="type" label="Type" options={[...DASHBOARD_TYPE_OPTIONS]} />
        <TextField control={form.control} name="name" label="Name" />
        <TextField control={form.control} name="url" label="URL" />
        <Note paragraph style={{ marginTop: -8 }}>
          {type === 'PowerBI' ? "The report's embed URL (…/reportEmbed?reportId=…&groupId=…)." : "The view's URL (…/views/<workbook>/<view>)."}
        </Note>
        <SelectField control={form.control} name="serverId" label="BI server" options={serverOptions} />
        {servers.failed && <Note tone="danger">The BI servers could not be listed: only {NO_SERVER_LABEL} can be chosen now.</Note>}
      </Form>
    </Drawer>
  );
}
