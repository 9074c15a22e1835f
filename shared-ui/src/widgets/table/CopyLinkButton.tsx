import { LinkOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useToasts } from '../../toasts/toasts';

export const LINK_COPIED = 'Link copied: it opens this table as you see it.';
export const LINK_NOT_COPIED = 'The link could not be copied: copy it from the address bar.';

/** Copies the page's address, which holds the table's view (urlView.ts), for someone else to open. */
export function CopyLinkButton({ tableName }: { tableName: string }) {
  const toasts = useToasts();
  return (
    <Button
      size="small"
      icon={<LinkOutlined />}
      aria-label={`Copy a link to ${tableName}`}
      onClick={() => {
        const href = globalThis.location?.href ?? '';
        const clipboard = globalThis.navigator?.clipboard;
        if (!clipboard) {
          toasts.warning(LINK_NOT_COPIED);
          return;
        }
        clipboard.writeText(href).then(
          () => toasts.success(LINK_COPIED),
          () => toasts.warning(LINK_NOT_COPIED),
        );
      }}
    >
      {/* Words of its name ('Copy a link to …'), so what a user sees is what they can say (axe label-content-name-mismatch). */}
      Copy a link
    </Button>
  );
}
