import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MAX_UPLOAD_BYTES } from '../files/transfer';
import { fakeFile } from '../testing/files';
import { ConsoleProviders } from './ConsoleProviders';
import { FileDropZone, type FileDropZoneProps, type ProgressReporter } from './FileDropZone';

function renderZone(props: Partial<FileDropZoneProps> = {}) {
  const utils = render(
    <ConsoleProviders>
      <FileDropZone acceptedTypes={['.xlsx']} {...props} />
    </ConsoleProviders>,
  );
  // The chooser swaps in a fresh input after every choice, so it is looked up each time.
  const input = () => utils.container.querySelector('input[type="file"]') as HTMLInputElement;
  const choose = (...files: File[]) => fireEvent.change(input(), { target: { files } });
  const zone = () => screen.getByRole('button', { name: /Drop \.xlsx file/ });
  return { ...utils, choose, zone, input };
}

const upload = () => screen.getByRole('button', { name: /Upload/ });
const chosen = () =>
  screen
    .queryAllByRole('listitem')
    .map((li) => li.textContent ?? '')
    .map((t) => t.replace(/Remove$/, ''));

describe('FileDropZone', () => {
  test('says the limit with the one upload-limit wording, per file when several are allowed', () => {
    const { unmount } = renderZone();
    expect(screen.getByText('Up to 9.54 MB (10,000,000 bytes)')).toBeInTheDocument();
    unmount();
    renderZone({ multiple: true });
    expect(screen.getByText('Up to 9.54 MB (10,000,000 bytes) each')).toBeInTheDocument();
  });

  test('a single file over the limit is refused before sending, with the §8 warning', async () => {
    const onUpload = jest.fn(() => Promise.resolve());
    const { choose } = renderZone({ onUpload });
    choose(fakeFile('huge.xlsx', MAX_UPLOAD_BYTES + 1));
    expect(await screen.findByText('File huge.xlsx not valid. Please check file size.')).toBeInTheDocument();
    expect(chosen()).toEqual([]);
    expect(upload()).toBeDisabled();
    expect(onUpload).not.toHaveBeenCalled();
  });

  test('in a multi-file selection each oversized file is warned about and left out; the rest are sent', async () => {
    const onUpload = jest.fn((_files: File[], _progress: ProgressReporter) => Promise.resolve());
    const { choose } = renderZone({ multiple: true, onUpload, maxSize: 1000 });
    choose(fakeFile('a.xlsx', 10), fakeFile('big-1.xlsx', 1001), fakeFile('b.xlsx', 1000), fakeFile('big-2.xlsx', 5000));
    expect(await screen.findByText('File big-1.xlsx not valid. Please check file size.')).toBeInTheDocument();
    expect(await screen.findByText('File big-2.xlsx not valid. Please check file size.')).toBeInTheDocument();
    await waitFor(() => expect(chosen()).toEqual(['a.xlsx10 Bytes', 'b.xlsx1000 Bytes']));
    fireEvent.click(upload());
    expect(onUpload).toHaveBeenCalledTimes(1);
    expect(onUpload.mock.calls[0]![0].map((f) => f.name)).toEqual(['a.xlsx', 'b.xlsx']);
    // Sent files leave the list.
    await waitFor(() => expect(chosen()).toEqual([]));
  });

  test('only the accepted types are taken', async () => {
    const { choose } = renderZone({ onUpload: jest.fn() });
    choose(fakeFile('notes.txt', 10), fakeFile('PLAN.XLSX', 2048));
    expect(await screen.findByText('File notes.txt is not a .xlsx file.')).toBeInTheDocument();
    await waitFor(() => expect(chosen()).toEqual(['PLAN.XLSX2 KB']));
  });

  test('a single-file zone keeps the latest choice; Remove clears it', async () => {
    const { choose } = renderZone({ onUpload: jest.fn() });
    choose(fakeFile('one.xlsx', 1536));
    await waitFor(() => expect(chosen()).toEqual(['one.xlsx1.5 KB']));
    choose(fakeFile('two.xlsx', 10));
    await waitFor(() => expect(chosen()).toEqual(['two.xlsx10 Bytes']));
    fireEvent.click(screen.getByRole('button', { name: 'Remove two.xlsx' }));
    expect(chosen()).toEqual([]);
  });

  test('shows progress and locks itself while uploading; keeps the files when the upload fails', async () => {
    let report: ProgressReporter = () => undefined;
    let fail: (e: Error) => void = () => undefined;
    const onUpload = jest.fn(
      (_files: File[], progress: ProgressReporter) =>
        new Promise<void>((_resolve, reject) => {
          report = progress;
          fail = reject;
        }),
    );
    const { choose, zone, input } = renderZone({ onUpload });
    choose(fakeFile('plan.xlsx', 10));
    await waitFor(() => expect(chosen()).toHaveLength(1));
    fireEvent.click(upload());
    act(() => report(0.42));
    expect(screen.getByText('Uploading… 42%')).toBeInTheDocument();
    expect(input()).toBeDisabled();
    expect(zone()).not.toHaveAttribute('tabindex');
    expect(screen.getByRole('button', { name: 'Remove plan.xlsx' })).toBeDisabled();
    act(() => report(1));
    expect(screen.getByText('Processing…')).toBeInTheDocument();
    await act(async () => fail(new Error('refused')));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(chosen()).toEqual(['plan.xlsx10 Bytes']);
    expect(input()).toBeEnabled();
    expect(zone()).toHaveAttribute('tabindex', '0');
  });

  test('the chooser is reachable from the keyboard', () => {
    const { zone } = renderZone();
    expect(zone()).toHaveAttribute('tabindex', '0');
  });
});
