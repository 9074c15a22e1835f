import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api, ApiError } from 'shared-auth';
import { catchDownloads } from '../testing/pageKit';
import { ConsoleProviders } from './ConsoleProviders';
import { ScriptsDownload } from './ScriptsDownload';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn() } }));
const get = api.get as jest.Mock;

const refusal = (status: number, message: string) =>
  new ApiError('refused', 'ERR_BAD_REQUEST', undefined, undefined, {
    status,
    statusText: '',
    data: { message },
    headers: {},
    config: {} as never,
  });

let saved: string[];
beforeEach(() => {
  get.mockReset();
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

function renderButton() {
  render(
    <ConsoleProviders>
      <ScriptsDownload path="Validation/GetNbrRelationsValidationScripts" idParam="nbrRelationsValidationId" runId={42} />
    </ConsoleProviders>,
  );
  return screen.getByRole('button', { name: 'Download corrective scripts of run 42' });
}

describe('ScriptsDownload', () => {
  test("asks the run kind's scripts call for the run's zip and downloads it under the server's name", async () => {
    get.mockImplementation((path: string) =>
      Promise.resolve(
        path === 'File/Download'
          ? { data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="NbrRelationsValidation_LX0001_scripts.zip"' } }
          : { data: { file: 'exp-7' } },
      ),
    );
    fireEvent.click(renderButton());
    await waitFor(() => expect(saved).toEqual(['NbrRelationsValidation_LX0001_scripts.zip']));
    expect(get).toHaveBeenCalledWith('Validation/GetNbrRelationsValidationScripts', expect.objectContaining({ params: { nbrRelationsValidationId: 42 } }));
    expect(get).toHaveBeenCalledWith('File/Download', expect.objectContaining({ params: { file: 'exp-7' } }));
  });

  test('a run with nothing to correct: its message as a notice, no error page, no download', async () => {
    get.mockRejectedValue(refusal(404, 'This run found nothing that needs a corrective script.'));
    fireEvent.click(renderButton());
    expect(await screen.findByText('This run found nothing that needs a corrective script.')).toBeInTheDocument();
    // The call opted out of the client's error handling, which would have opened /errors/error-404.
    expect(get).toHaveBeenCalledWith('Validation/GetNbrRelationsValidationScripts', expect.objectContaining({ skipErrorHandling: true }));
    expect(get).toHaveBeenCalledTimes(1);
    expect(saved).toEqual([]);
  });

  test('another refusal shows its message as an error', async () => {
    get.mockRejectedValue(refusal(403, 'Access denied.'));
    fireEvent.click(renderButton());
    expect(await screen.findByText('Access denied.')).toBeInTheDocument();
    expect(document.querySelector('.ant-notification-notice-error')).not.toBeNull();
  });
});
