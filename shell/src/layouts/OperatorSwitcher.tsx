import { theme } from 'antd';
import { useEffect, useId, useState, type CSSProperties } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { UserOperators } from 'contracts';
import { api, can, principalOf, useSession } from 'shared-auth';
import { switchOperator } from '../session/operatorSwitch';

/** Query parameters that name a record (a run, a parse report): a record of the operator left behind, dropped on a switch. */
const RECORD_PARAMS: readonly string[] = ['run', 'report'];

const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/**
 * The top bar's current operator (issue 42). Administrators, Managers and CellwiseHQ switch it here
 * (the access policy's canChooseOperator, as the Settings select); everyone else sees its name.
 *
 * A native select, drawn in the theme's colours: the top bar is on every page, and antd's Select (with
 * its virtual list and popup) would add its weight to /home for a list of two or three names. The
 * native one is reachable and changeable from the keyboard, and on a phone opens the system picker.
 */
export function OperatorSwitcher({ compact = false }: { compact?: boolean }) {
  const { token } = theme.useToken();
  const userId = useSession((s) => s.user.id);
  const current = useSession((s) => s.user.operator);
  const mayChoose = useSession((s) => can(principalOf(s), 'canChooseOperator'));
  const [operators, setOperators] = useState<UserOperators | null>(null);
  const [switching, setSwitching] = useState(false);
  const [search, setSearch] = useSearchParams();
  const labelId = useId();

  useEffect(() => {
    if (!mayChoose || userId === null) return;
    let live = true;
    // A background read for the top bar: no overlay, no error page; the name alone stays shown meanwhile.
    api
      .get<UserOperators>('Account/GetUserOperators', { params: { userId }, skipLoading: true, skipErrorHandling: true, outlivesPage: true })
      .then(({ data }) => live && setOperators(data))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [mayChoose, userId]);

  const label = (
    <span id={labelId} style={HIDDEN}>
      Current operator
    </span>
  );
  const textStyle: CSSProperties = {
    color: token.colorText,
    fontWeight: 500,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    maxWidth: compact ? 120 : 220,
  };

  // An Administrator's current operator may be one they do not belong to: it is still the one shown.
  const options = operators && current && !operators.some((o) => o.id === current.id) ? [current, ...operators] : (operators ?? []);
  // Nothing to choose from (one operator, or the list not here yet): the name, as for other roles.
  const choosable = mayChoose && (current === null ? options.length > 0 : options.length > 1);
  if (!choosable) {
    if (!current) return null;
    return (
      <span data-testid="current-operator" style={textStyle} title={current.name}>
        <span style={HIDDEN}>Current operator: </span>
        {current.name}
      </span>
    );
  }

  const choose = async (value: string) => {
    const id = Number(value);
    if (!Number.isInteger(id) || id === current?.id) return;
    setSwitching(true);
    try {
      await switchOperator(id);
      if (RECORD_PARAMS.some((name) => search.has(name))) {
        setSearch(
          (params) => {
            const next = new URLSearchParams(params);
            for (const name of RECORD_PARAMS) next.delete(name);
            return next;
          },
          { replace: true },
        );
      }
    } catch {
      // Refused or failed: the API client has said why; the select shows the operator still current.
    } finally {
      setSwitching(false);
    }
  };

  return (
    <>
      {label}
      <select
        aria-labelledby={labelId}
        data-testid="operator-switcher"
        value={current?.id ?? ''}
        disabled={switching}
        aria-busy={switching}
        onChange={(e) => void choose(e.target.value)}
        style={{
          height: 32,
          maxWidth: compact ? 132 : 220,
          minWidth: 0,
          padding: '0 28px 0 11px',
          fontFamily: 'inherit',
          fontSize: token.fontSize,
          // Not the header's 64 px line height, which pushes the text out of the box.
          lineHeight: '30px',
          color: token.colorText,
          background: `${token.colorBgContainer} url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='10' height='6' viewBox='0 0 10 6'%3E%3Cpath d='M1 1l4 4 4-4' fill='none' stroke='%23595959' stroke-width='1.5'/%3E%3C/svg%3E") no-repeat right 10px center`,
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          appearance: 'none',
          cursor: switching ? 'wait' : 'pointer',
          textOverflow: 'ellipsis',
        }}
      >
        {current === null && (
          <option value="" disabled>
            Choose an operator
          </option>
        )}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </>
  );
}
