import { render, screen } from '@testing-library/react';
import type { RunResponse } from 'api/contracts';
import { RunResultCard } from './RunResult';

const result: RunResponse = {
  runId: 4,
  file: 'export-1',
  summary: [
    { label: 'OK', count: 12, tone: 'ok' },
    { label: 'MISSING', count: 2, tone: 'error' },
  ],
  preview: {
    title: 'Relations',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'verdict', label: 'Verdict' },
    ],
    rows: [
      { source: 'LX0001_1', verdict: 'OK' },
      { source: 'LX0001_2', verdict: 'MISSING' },
    ],
    total: 14,
  },
};

describe('RunResultCard', () => {
  // The card loads when first shown (the page's first load does without it): hence the first findBy.
  test('shows the verdict counts, the first rows with how many there are in all, and the workbook', async () => {
    render(<RunResultCard result={result} />);
    expect(await screen.findByText('OK: 12')).toBeInTheDocument();
    expect(screen.getByText('MISSING: 2')).toBeInTheDocument();
    expect(screen.getByText('Relations: first 2 of 14 rows (all of them in the workbook)')).toBeInTheDocument();
    expect(screen.getByText('LX0001_2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Download workbook/ })).toBeInTheDocument();
  });

  test('a run that wrote nothing says why and offers no download', async () => {
    render(<RunResultCard result={{ runId: 5, message: 'No UTRAN cells on LX0002.', summary: [], preview: { ...result.preview, rows: [], total: 0 } }} />);
    expect(await screen.findByText('No UTRAN cells on LX0002.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download workbook/ })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
