import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api } from 'shared-auth';
import { fakeFile } from '../testing/files';
import { ConsoleProviders } from './ConsoleProviders';
import { ImportDialog } from './ImportDialog';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));
const get = api.get as jest.Mock;
const post = api.post as jest.Mock;

afterEach(() => jest.resetAllMocks());

function renderDialog(open = true) {
  const onClose = jest.fn();
  const onImported = jest.fn();
  const view = (isOpen: boolean) => (
    <ConsoleProviders>
      <ImportDialog title="Import Commissioning Plan" open={isOpen} onClose={onClose} importPath="Tracker/CommissioningPlanUpload" onImported={onImported} />
    </ConsoleProviders>
  );
  const utils = render(view(open));
  const dialog = () => screen.getByRole('dialog');
  const choose = (file: File) => fireEvent.change(dialog().querySelector('input[type="file"]')!, { target: { files: [file] } });
  return { ...utils, onClose, onImported, dialog, choose, rerenderOpen: (isOpen: boolean) => utils.rerender(view(isOpen)) };
}

async function uploadPlan(choose: (file: File) => void) {
  choose(fakeFile('plan.xlsx', 2048));
  const upload = await screen.findByRole('button', { name: /Upload/ });
  await waitFor(() => expect(upload).toBeEnabled());
  // The whole upload → import chain settles inside act, as it would between two frames.
  await act(async () => {
    fireEvent.click(upload);
  });
}

const refusal = {
  response: {
    status: 400,
    data: {
      message: '2 rows have problems; nothing was imported.',
      errors: [
        { row: 3, column: 'commDate', problem: "'31-02-2026' is not a date" },
        { row: 7, column: 'localId', problem: 'is required' },
      ],
      errorFile: 'err-1',
    },
  },
};

describe('ImportDialog', () => {
  test('uploads the workbook, passes its upload id to the import call, shows the message and closes', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-1', name: 'plan.xlsx', size: 2048 } });
    get.mockResolvedValue({ data: { message: 'Commissioning Plan successfully imported!', rows: 12 } });
    const { dialog, choose, onClose, onImported } = renderDialog();
    expect(within(dialog()).getByText('Import Commissioning Plan')).toBeInTheDocument();
    await uploadPlan(choose);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(post).toHaveBeenCalledWith('File/Upload', expect.any(FormData), expect.objectContaining({ skipLoading: true }));
    expect(get).toHaveBeenCalledWith('Tracker/CommissioningPlanUpload', { params: { filePath: 'up-1' }, skipLoading: true, skipErrorHandling: true });
    expect(onImported).toHaveBeenCalledWith({ message: 'Commissioning Plan successfully imported!', rows: 12 });
    expect(await screen.findByText('Commissioning Plan successfully imported!')).toBeInTheDocument();
  });

  test('a refused workbook keeps the dialog open with the row-by-row problems and the error workbook', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-2', name: 'plan.xlsx', size: 2048 } });
    get.mockRejectedValueOnce(refusal);
    const { dialog, choose, onClose, onImported } = renderDialog();
    await uploadPlan(choose);
    const problems = await within(dialog()).findByTestId('import-problems');
    expect(within(problems).getByText('2 rows have problems; nothing was imported.')).toBeInTheDocument();
    expect(within(problems).getByText('2 problems listed below.')).toBeInTheDocument();
    const rows = within(problems)
      .getAllByRole('row')
      .map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));
    expect(rows.filter((r) => r.length === 3)).toEqual([
      ['3', 'commDate', "'31-02-2026' is not a date"],
      ['7', 'localId', 'is required'],
    ]);
    expect(onClose).not.toHaveBeenCalled();
    expect(onImported).not.toHaveBeenCalled();

    get.mockResolvedValueOnce({ data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="plan-errors.xlsx"' } });
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:1'), revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(within(problems).getByRole('button', { name: /Download error workbook/ }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(get).toHaveBeenLastCalledWith('File/Download', { params: { file: 'err-1' }, responseType: 'blob', skipErrorHandling: true });
    click.mockRestore();
  });

  test('a file the server refuses outright is explained in the dialog', async () => {
    post.mockRejectedValue({ response: { status: 400, data: { message: 'plan.xlsx is not a valid .xlsx workbook.' } } });
    const { dialog, choose } = renderDialog();
    await uploadPlan(choose);
    expect(await within(dialog()).findByText('plan.xlsx is not a valid .xlsx workbook.')).toBeInTheDocument();
    expect(get).not.toHaveBeenCalled();
  });

  test('closing forgets the problems: the next opening starts clean', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-3', name: 'plan.xlsx', size: 2048 } });
    get.mockRejectedValueOnce(refusal);
    const { dialog, choose, onClose, rerenderOpen } = renderDialog();
    await uploadPlan(choose);
    await within(dialog()).findByTestId('import-problems');
    fireEvent.click(within(dialog()).getByText('Close').closest('button')!);
    expect(onClose).toHaveBeenCalled();
    rerenderOpen(false);
    rerenderOpen(true);
    await waitFor(() => expect(screen.queryByTestId('import-problems')).not.toBeInTheDocument());
    expect(within(dialog()).queryAllByRole('listitem')).toHaveLength(0);
  });
});
