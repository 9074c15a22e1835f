import { DeleteOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Flex, List, Upload } from 'antd';
import { useState } from 'react';
import { formatSize } from '../format';

/** Largest file the console accepts (specification §9). */
export const MAX_UPLOAD_BYTES = 10_000_000;

export function fileSizeWarning(name: string): string {
  return `File ${name} not valid. Please check file size.`;
}

export interface FileDropZoneProps {
  multiple?: boolean;
  /** Extensions with the dot, e.g. ['.xlsx']. */
  acceptedTypes: string[];
  maxSize?: number;
  /** Sends the chosen files. Without it the Upload button stays disabled. */
  onUpload?: (files: File[]) => Promise<void>;
}

/**
 * Drop zone with Remove and Upload buttons. The size check runs for single and multi-file
 * selections alike, before anything is sent.
 */
export function FileDropZone({ multiple, acceptedTypes, maxSize = MAX_UPLOAD_BYTES, onUpload }: FileDropZoneProps) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const accept = (file: File): boolean => {
    const lower = file.name.toLowerCase();
    if (!acceptedTypes.some((t) => lower.endsWith(t.toLowerCase()))) {
      void message.warning(`File ${file.name} is not a ${acceptedTypes.join(' or ')} file.`);
      return false;
    }
    if (file.size > maxSize) {
      void message.warning(fileSizeWarning(file.name));
      return false;
    }
    return true;
  };
  return (
    <Flex vertical gap={8}>
      <Upload.Dragger
        multiple={multiple}
        accept={acceptedTypes.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          if (accept(file)) setFiles((prev) => (multiple ? [...prev, file] : [file]));
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>
          Drop {acceptedTypes.join(', ')} {multiple ? 'files' : 'file'} here or click to choose
        </p>
        <p style={{ color: '#888' }}>Up to {formatSize(maxSize)} each</p>
      </Upload.Dragger>
      {files.length > 0 && (
        <List
          size="small"
          bordered
          dataSource={files}
          renderItem={(file) => (
            <List.Item
              actions={[
                <Button key="remove" size="small" icon={<DeleteOutlined />} onClick={() => setFiles((prev) => prev.filter((f) => f !== file))}>
                  Remove
                </Button>,
              ]}
            >
              {file.name} ({formatSize(file.size)})
            </List.Item>
          )}
        />
      )}
      <Flex gap={8}>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          disabled={!onUpload || files.length === 0}
          loading={busy}
          onClick={() => {
            if (!onUpload) return;
            setBusy(true);
            onUpload(files)
              .then(() => setFiles([]))
              .finally(() => setBusy(false));
          }}
        >
          Upload
        </Button>
        <Button disabled={files.length === 0} onClick={() => setFiles([])}>
          Remove
        </Button>
      </Flex>
    </Flex>
  );
}
