import { MUTED_TEXT } from '../../theme/tokens';

/** What a table control's popover shows while its panel loads (a moment, the first time only). */
export function PanelLoading() {
  return (
    <div role="status" aria-busy="true" style={{ width: 'min(320px, calc(100vw - 48px))', padding: '8px 0', color: MUTED_TEXT }}>
      Loading…
    </div>
  );
}
