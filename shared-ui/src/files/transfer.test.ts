import { api, TRANSFER_TIMEOUT_MS } from 'shared-auth';
import { fakeFile } from '../testing/files';
import { FileTooLargeError, MAX_UPLOAD_BYTES, downloadExport, fileNameFromDisposition, uploadFiles } from './transfer';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));
const post = api.post as jest.Mock;
const get = api.get as jest.Mock;

afterEach(() => jest.resetAllMocks());

describe('uploadFiles', () => {
  test('one file goes to File/Upload as the part "file", with progress and without the overlay', async () => {
    post.mockImplementation((_path: string, _form: FormData, config: { onUploadProgress: (e: object) => void }) => {
      config.onUploadProgress({ loaded: 50, total: 100 });
      return Promise.resolve({ data: { uploadId: 'u1', name: 'plan.xlsx', size: 100 } });
    });
    const progress: number[] = [];
    const uploads = await uploadFiles([fakeFile('plan.xlsx', 100)], { onProgress: (f) => progress.push(f) });
    expect(uploads).toEqual([{ uploadId: 'u1', name: 'plan.xlsx', size: 100 }]);
    const [path, form, config] = post.mock.calls[0] as [string, FormData, { skipLoading: boolean }];
    expect(path).toBe('File/Upload');
    expect((form.get('file') as File).name).toBe('plan.xlsx');
    expect(config.skipLoading).toBe(true);
    expect(progress).toEqual([0.5, 1]);
  });

  test('several files go to File/UploadMultiple as repeated "files" parts', async () => {
    post.mockResolvedValue({ data: { uploads: [{ uploadId: 'a' }, { uploadId: 'b' }] } });
    const uploads = await uploadFiles([fakeFile('a.xlsx', 1), fakeFile('b.xlsx', 2)]);
    expect(uploads.map((u) => u.uploadId)).toEqual(['a', 'b']);
    const [path, form] = post.mock.calls[0] as [string, FormData];
    expect(path).toBe('File/UploadMultiple');
    expect(form.getAll('files').map((f) => (f as File).name)).toEqual(['a.xlsx', 'b.xlsx']);
  });

  test('an oversized file in a multi-file selection stops everything before a byte is sent', async () => {
    await expect(uploadFiles([fakeFile('a.xlsx', 1), fakeFile('huge.xlsx', MAX_UPLOAD_BYTES + 1)])).rejects.toThrow(new FileTooLargeError('huge.xlsx'));
    await expect(uploadFiles([fakeFile('huge.xlsx', MAX_UPLOAD_BYTES + 1)])).rejects.toThrow('File huge.xlsx not valid. Please check file size.');
    expect(post).not.toHaveBeenCalled();
  });
});

describe('fileNameFromDisposition', () => {
  test.each([
    ['attachment; filename="Commissioning Plan.xlsx"', 'Commissioning Plan.xlsx'],
    ['attachment; filename=plain.xlsx', 'plain.xlsx'],
    [`attachment; filename="fallback.xlsx"; filename*=UTF-8''Planeamento%20S%C3%A3o.xlsx`, 'Planeamento São.xlsx'],
    ['attachment; filename="quoted \\"name\\".xlsx"', 'quoted "name".xlsx'],
    ['attachment', 'download'],
    [undefined, 'download'],
  ])('%s → %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });
});

describe('downloadExport', () => {
  test('fetches the export as a blob and saves it under the served name', async () => {
    const blob = new Blob(['PK']);
    get.mockResolvedValue({ data: blob, headers: { 'content-disposition': 'attachment; filename="tracker.xlsx"' } });
    const createObjectURL = jest.fn(() => 'blob:1');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    await expect(downloadExport('exp-1')).resolves.toBe('tracker.xlsx');
    // The user asked for the file: it arrives even if they leave the page, however slow the link.
    expect(get).toHaveBeenCalledWith('File/Download', {
      params: { file: 'exp-1' },
      responseType: 'blob',
      skipErrorHandling: true,
      outlivesPage: true,
      timeout: TRANSFER_TIMEOUT_MS,
    });
    expect(createObjectURL).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual(['tracker.xlsx']);
    click.mockRestore();
  });
});
