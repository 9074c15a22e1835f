import { Card } from 'antd';
import { DataTable, FileDropZone, PageContainer } from 'shared-ui';
import { runHistoryColumns } from '../historyColumns';

export default function NbrRelationsOptimizationPage() {
  return (
    <PageContainer title="Nbr Relations Optimization">
      <Card>
        <FileDropZone multiple acceptedTypes={['.xlsx']} />
      </Card>
      <DataTable caption="Nbr Relations Optimization History" columns={runHistoryColumns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
