import type { FileResponse, MAX_UPLOAD_BYTES as CONTRACT_MAX_UPLOAD_BYTES, UploadedFile, UploadedFiles } from 'contracts';
import { api, TRANSFER_TIMEOUT_MS, type UploadProgress } from 'shared-auth';

export type { FileResponse, UploadedFile };

/** Largest file the console accepts (specification §9); typed by the API's own limit, so the two cannot drift apart. */
export const MAX_UPLOAD_BYTES: typeof CONTRACT_MAX_UPLOAD_BYTES = 10_000_000;

/** Specification §8: the same words in the browser's check and the server's 413. */
export function fileSizeWarning(name: string): string {
  return `File ${name} not valid. Please check file size.`;
}

export interface UploadOptions {
  /** Fraction of the bytes sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  maxSize?: number;
}

/** Thrown before anything is sent when a file is over the limit. */
export class FileTooLargeError extends Error {
  constructor(readonly fileName: string) {
    super(fileSizeWarning(fileName));
    this.name = 'FileTooLargeError';
  }
}

function progressOf(event: UploadProgress): number {
  if (event.progress !== undefined) return event.progress;
  return event.total ? event.loaded / event.total : 0;
}

/**
 * Sends files to the file service: one file through `File/Upload`, several through
 * `File/UploadMultiple`. The size limit is checked here too, so no caller can send an oversized file
 * by skipping the drop zone. The loading overlay stays off: callers show the progress instead, and
 * the overlay would cover it.
 */
export async function uploadFiles(files: File[], { onProgress, maxSize = MAX_UPLOAD_BYTES }: UploadOptions = {}): Promise<UploadedFile[]> {
  if (files.length === 0) return [];
  const tooLarge = files.find((f) => f.size > maxSize);
  if (tooLarge) throw new FileTooLargeError(tooLarge.name);
  const form = new FormData();
  const config = {
    skipLoading: true,
    timeout: TRANSFER_TIMEOUT_MS,
    onUploadProgress: (event: UploadProgress) => onProgress?.(progressOf(event)),
  };
  if (files.length === 1) {
    form.append('file', files[0]!, files[0]!.name);
    const { data } = await api.post<UploadedFile>('File/Upload', form, config);
    onProgress?.(1);
    return [data];
  }
  for (const file of files) form.append('files', file, file.name);
  const { data } = await api.post<UploadedFiles>('File/UploadMultiple', form, config);
  onProgress?.(1);
  return data.uploads;
}

/** The file name a `content-disposition` header carries; RFC 6266 `filename*` wins over `filename`. */
export function fileNameFromDisposition(header: string | null | undefined, fallback = 'download'): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape falls through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
  if (!plain) return fallback;
  const name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
  return name === '' ? fallback : name;
}

/** Hands a blob to the browser as a download under the given name. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next turn: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads a recorded export through `File/Download` and saves it under the name the server gives.
 * Download failures are not shown to the user (specification §8), so the global error toast is off;
 * the promise still rejects so a caller can stop its spinner. The user asked for the file, so it still
 * arrives if they move to another page meanwhile.
 */
export async function downloadExport(fileId: string): Promise<string> {
  const response = await api.get<Blob>('File/Download', {
    params: { file: fileId },
    responseType: 'blob',
    skipErrorHandling: true,
    outlivesPage: true,
    timeout: TRANSFER_TIMEOUT_MS,
  });
  const header: unknown = response.headers['content-disposition'];
  const name = fileNameFromDisposition(typeof header === 'string' ? header : null, fileId);
  saveBlob(response.data, name);
  return name;
}
