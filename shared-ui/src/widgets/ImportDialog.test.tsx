import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api, publishJobProgress } from 'shared-auth';
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

/** A promise the test settles by hand: the import call pending while job events arrive. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const job = (id: string, progress: number, text: string | null, kind = 'tracking.import') => ({ id, kind, state: 'running', progress, text });

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
  test('renders nothing until first opened, then the dialog', async () => {
    const { rerenderOpen } = renderDialog(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    rerenderOpen(true);
    // The body's first import compiles it and its antd components (Upload, Table): seconds on a busy machine.
    expect(within(await screen.findByRole('dialog', {}, { timeout: 15_000 })).getByText('Import Commissioning Plan')).toBeInTheDocument();
  });

  test('uploads the workbook, passes its upload id to the import call, shows the message and closes', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-1', name: 'plan.xlsx', size: 2048 } });
    get.mockResolvedValue({ data: { message: 'Commissioning Plan successfully imported!', rows: 12 } });
    const { choose, onClose, onImported } = renderDialog();
    // The dialog's code loads when it first opens (this test may be the first to load it).
    expect(within(await screen.findByRole('dialog', {}, { timeout: 15_000 })).getByText('Import Commissioning Plan')).toBeInTheDocument();
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
    expect(get).toHaveBeenLastCalledWith(
      'File/Download',
      expect.objectContaining({ params: { file: 'err-1' }, responseType: 'blob', skipErrorHandling: true }),
    );
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

  test('while the import call is pending, the stage and percent of its job are shown; the answer closes the dialog', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-4', name: 'plan.xlsx', size: 2048 } });
    const call = pending<{ data: { message: string; rows: number } }>();
    get.mockReturnValueOnce(call.promise);
    // Before the call starts: not this import's.
    act(() => publishJobProgress(job('job-old', 90, 'Reading rows 900 / 1,000')));
    const { dialog, choose, onClose, onImported } = renderDialog();
    await uploadPlan(choose);
    const status = within(dialog()).getByRole('status');
    // No event yet (a small file may never send one): indeterminate.
    expect(within(status).getByText('Importing…')).toBeInTheDocument();
    expect(within(status).getByRole('progressbar', { name: 'Import progress' })).not.toHaveAttribute('aria-valuenow');
    expect(within(status).queryByText('100%')).not.toBeInTheDocument();

    act(() => publishJobProgress(job('job-1', 40, 'Reading rows 40,000 / 100,000')));
    expect(within(status).getByText('Reading rows 40,000 / 100,000')).toBeInTheDocument();
    const bar = within(status).getByRole('progressbar', { name: 'Import progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(within(status).getByText('40%')).toBeInTheDocument();
    // Other kinds, and another job of the kind once this one is followed, change nothing.
    act(() => publishJobProgress(job('job-2', 5, 'Writing Tracker', 'tracking.export')));
    act(() => publishJobProgress(job('job-3', 70, 'Reading rows 7 / 10')));
    expect(within(status).getByText('Reading rows 40,000 / 100,000')).toBeInTheDocument();
    act(() => publishJobProgress(job('job-1', 79, 'Reading rows 80,000 / 100,000')));
    expect(within(status).getByText('Reading rows 80,000 / 100,000')).toBeInTheDocument();
    expect(within(status).getByText('79%')).toBeInTheDocument();
    // Still busy: the dialog cannot be closed under the running import.
    expect(within(dialog()).getByText('Close').closest('button')).toBeDisabled();
    expect(onClose).not.toHaveBeenCalled();

    await act(async () => call.resolve({ data: { message: 'Commissioning Plan successfully imported!', rows: 100_000 } }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onImported).toHaveBeenCalledWith({ message: 'Commissioning Plan successfully imported!', rows: 100_000 });
    expect(await screen.findAllByText('Commissioning Plan successfully imported!')).toHaveLength(1);
  });

  test('a refusal after progress shows the problems and forgets the bar; a late event changes nothing', async () => {
    post.mockResolvedValue({ data: { uploadId: 'up-5', name: 'plan.xlsx', size: 2048 } });
    const call = pending<never>();
    get.mockReturnValueOnce(call.promise);
    const { dialog, choose, onClose } = renderDialog();
    await uploadPlan(choose);
    act(() => publishJobProgress(job('job-4', 99, 'Writing the error workbook')));
    expect(within(dialog()).getByText('Writing the error workbook')).toBeInTheDocument();
    await act(async () => call.reject(refusal));
    const problems = await within(dialog()).findByTestId('import-problems');
    expect(within(problems).getByText('2 rows have problems; nothing was imported.')).toBeInTheDocument();
    act(() => publishJobProgress(job('job-4', 100, 'Reading rows 10 / 10')));
    expect(within(dialog()).queryByRole('status')).not.toBeInTheDocument();
    expect(within(dialog()).queryByText('Reading rows 10 / 10')).not.toBeInTheDocument();
    expect(within(dialog()).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
