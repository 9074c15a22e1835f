import { SearchOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { SiteSearchHit } from 'contracts';
import { api, can, principalOf, useSession } from 'shared-auth';

/** Where a found site opens: its report, which the other site pages follow by `?site=` (issue 47). */
export const siteReportOf = (siteId: string) => `/monitoring/siteReport?site=${encodeURIComponent(siteId)}`;
const WAIT_MS = 200;

/**
 * The top bar's site search (issue 47, as NetBox and Grafana have): a site id or name, at most 20 sites
 * of the current operator (Monitoring/SearchSites), each a link to its report; Enter opens the first.
 * A plain input and links, not antd's Select: the top bar is on every page, so it stays light.
 * Compact (a phone's top bar, where a box beside the operator switcher overlapped it): an icon button that
 * opens the box in a strip under the top bar, across its width; leaving it or Escape folds it back.
 */
export function SiteSearch({ compact = false }: { compact?: boolean }) {
  const allowed = useSession((s) => can(principalOf(s), 'canMonitor'));
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SiteSearchHit[] | null>(null);
  const [unfolded, setUnfolded] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const typed = text.trim();
    if (typed === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api
        .get<SiteSearchHit[]>('Monitoring/SearchSites', { params: { text: typed.slice(0, 100) }, skipLoading: true })
        .then(({ data }) => live && setHits(data))
        .catch(() => live && setHits([]));
    }, WAIT_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);

  if (!allowed) return null;
  const close = () => {
    setText('');
    setHits(null);
    setUnfolded(false);
  };
  if (compact && !unfolded) {
    return (
      <Button
        ref={opener}
        type="text"
        icon={<SearchOutlined />}
        aria-label="Open site search"
        title="Search sites"
        aria-expanded={false}
        onClick={() => setUnfolded(true)}
      />
    );
  }
  // The strip hangs from the top bar (the nearest positioned box: it sticks to the top of the screen).
  const strip = {
    position: 'absolute',
    insetInline: 0,
    top: '100%',
    zIndex: 20,
    padding: '8px 16px',
    lineHeight: 1.4,
    background: token.colorBgContainer,
    boxShadow: token.boxShadowSecondary,
  } as const;
  return (
    <div
      ref={box}
      style={compact ? strip : { position: 'relative', minWidth: 0 }}
      onBlur={(event) => {
        // Leaving the box (not moving to one of its links) closes the list, and folds a compact box.
        if (box.current?.contains(event.relatedTarget as Node | null)) return;
        setHits(null);
        if (compact) setUnfolded(false);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        close();
        if (compact) requestAnimationFrame(() => opener.current?.focus());
      }}
    >
      <input
        type="search"
        aria-label="Search sites"
        aria-controls={hits ? listId : undefined}
        placeholder="Search sites (id or name)"
        autoFocus={compact}
        value={text}
        maxLength={100}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value.trim() === '') setHits(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && hits && hits[0]) {
            navigate(siteReportOf(hits[0].siteId));
            close();
          }
        }}
        style={{
          width: compact ? '100%' : 240,
          boxSizing: 'border-box',
          height: 32,
          padding: '0 10px',
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          font: 'inherit',
          color: token.colorText,
          background: token.colorBgContainer,
        }}
      />
      {hits ? (
        <ul
          id={listId}
          aria-label="Sites found"
          style={{
            // Compact: in the strip, under the box, as wide as it.
            position: compact ? 'static' : 'absolute',
            insetInlineEnd: 0,
            top: 36,
            zIndex: 20,
            margin: compact ? '4px 0 0' : 0,
            padding: 4,
            listStyle: 'none',
            width: compact ? 'auto' : 320,
            maxWidth: '90vw',
            maxHeight: 360,
            overflow: 'auto',
            background: token.colorBgElevated,
            boxShadow: token.boxShadowSecondary,
            borderRadius: token.borderRadiusLG,
            lineHeight: 1.4,
          }}
        >
          {hits.length === 0 ? (
            <li style={{ padding: '6px 8px', color: token.colorTextSecondary }}>No site matches.</li>
          ) : (
            hits.map((hit) => (
              <li key={hit.siteId}>
                <Link to={siteReportOf(hit.siteId)} onClick={close} style={{ display: 'block', padding: '6px 8px', color: token.colorText }}>
                  <strong>{hit.siteId}</strong>
                  {hit.siteName ? ` – ${hit.siteName}` : ''}
                  {hit.overallSiteStatus ? <span style={{ color: token.colorTextSecondary }}> · {hit.overallSiteStatus}</span> : null}
                </Link>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
