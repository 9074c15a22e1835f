import { DeleteOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Progress, Upload, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { MAX_UPLOAD_BYTES, fileSizeWarning } from '../files/transfer';
import { formatSize, uploadLimitText } from '../format';
import { useToasts } from '../toasts/toasts';
import { Note } from './Note';

export function fileTypeWarning(name: string, acceptedTypes: string[]): string {
  return `File ${name} is not a ${acceptedTypes.join(' or ')} file.`;
}

/** Reports how much of the chosen files has been sent, 0 to 1. */
export type ProgressReporter = (fraction: number) => void;

export interface FileDropZoneProps {
  multiple?: boolean;
  /** Extensions with the dot, e.g. ['.xlsx']. */
  acceptedTypes: string[];
  maxSize?: number;
  /**
   * Sends the chosen files, reporting progress as it goes. Without it the Upload button stays
   * disabled. A rejection keeps the files listed so the user can retry; the caller shows why.
   */
  onUpload?: (files: File[], onProgress: ProgressReporter) => Promise<unknown>;
  /** Label of the send button. */
  uploadLabel?: string;
  /** Shown under the bar once every byte is sent and the caller is still working (e.g. 'Importing…'). */
  processingLabel?: string;
  /**
   * Shown instead of the full bar and `processingLabel` once every byte is sent and the caller is still
   * working, when the caller can say more (e.g. the import job's own progress).
   */
  processing?: ReactNode;
  disabled?: boolean;
}

function hasAcceptedType(file: File, acceptedTypes: string[]): boolean {
  const lower = file.name.toLowerCase();
  return acceptedTypes.some((t) => lower.endsWith(t.toLowerCase()));
}

/**
 * Why a chosen file must not be sent (wrong type, over the size limit), or null. The one check of the
 * console before anything is uploaded; the server checks again, content included.
 */
export function fileProblem(file: File, acceptedTypes: string[], maxSize: number = MAX_UPLOAD_BYTES): string | null {
  if (!hasAcceptedType(file, acceptedTypes)) return fileTypeWarning(file.name, acceptedTypes);
  if (file.size > maxSize) return fileSizeWarning(file.name);
  return null;
}

/**
 * Drop zone with Remove (beside each chosen file, and Remove all for several) and Upload buttons. Type and size are checked file by file as they are
 * chosen, for single and multi-file selections alike, so nothing oversized is ever sent (the legacy
 * check never ran for multi-file uploads).
 */
export function FileDropZone({
  multiple,
  acceptedTypes,
  maxSize = MAX_UPLOAD_BYTES,
  onUpload,
  uploadLabel = 'Upload',
  processingLabel = 'Processing…',
  processing,
  disabled,
}: FileDropZoneProps) {
  const toasts = useToasts();
  const { token } = theme.useToken();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const busy = progress !== null;
  const locked = busy || Boolean(disabled);

  const admit = (file: File): boolean => {
    const problem = fileProblem(file, acceptedTypes, maxSize);
    if (problem) toasts.warning(problem);
    return problem === null;
  };

  const send = () => {
    if (!onUpload || files.length === 0) return;
    setProgress(0);
    onUpload(files, (fraction) => setProgress(Math.max(0, Math.min(1, fraction))))
      .then(
        () => setFiles([]),
        // The caller reports the failure (toast or inline); the files stay for another try.
        () => undefined,
      )
      .finally(() => setProgress(null));
  };

  const percent = Math.round((progress ?? 0) * 100);
  const kind = multiple ? 'files' : 'file';
  return (
    <Flex vertical gap={8}>
      <Upload.Dragger
        multiple={multiple}
        accept={acceptedTypes.join(',')}
        showUploadList={false}
        disabled={locked}
        beforeUpload={(file) => {
          if (admit(file)) setFiles((prev) => (multiple ? [...prev.filter((f) => f.name !== file.name), file] : [file]));
          // Nothing is sent by antd itself: the Upload button sends through the console's API client.
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>
          Drop {acceptedTypes.join(', ')} {kind} here, or click or press Enter to choose
        </p>
        <Note>{uploadLimitText(maxSize, multiple)}</Note>
      </Upload.Dragger>
      {files.length > 0 && (
        <ul
          aria-label={`Chosen ${kind}`}
          style={{ listStyle: 'none', margin: 0, padding: 0, border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius }}
        >
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} style={{ borderTop: index === 0 ? undefined : `1px solid ${token.colorSplit}`, padding: '6px 12px' }}>
              <Flex align="center" gap={8}>
                <span title={file.name} style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {file.name}
                </span>
                <Note style={{ whiteSpace: 'nowrap' }}>{formatSize(file.size)}</Note>
                <Button
                  size="small"
                  icon={<DeleteOutlined />}
                  disabled={busy}
                  aria-label={`Remove ${file.name}`}
                  onClick={() => setFiles((prev) => prev.filter((f) => f !== file))}
                >
                  Remove
                </Button>
              </Flex>
            </li>
          ))}
        </ul>
      )}
      {busy && (
        <div role="status" aria-live="polite">
          {percent >= 100 && processing !== undefined ? (
            processing
          ) : (
            <>
              <Progress percent={percent} size="small" status="active" aria-label="Upload progress" />
              <Note>{percent < 100 ? `Uploading… ${percent}%` : processingLabel}</Note>
            </>
          )}
        </div>
      )}
      <Flex gap={8}>
        <Button type="primary" icon={<UploadOutlined />} disabled={!onUpload || files.length === 0 || Boolean(disabled)} loading={busy} onClick={send}>
          {uploadLabel}
        </Button>
        {/* A file's own Remove is beside it; one file needs no second button doing the same (issue 47). */}
        {multiple ? (
          <Button disabled={files.length === 0 || locked} onClick={() => setFiles([])}>
            Remove all
          </Button>
        ) : null}
      </Flex>
    </Flex>
  );
}
