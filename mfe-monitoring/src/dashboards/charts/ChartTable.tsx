import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { formatCount } from 'shared-ui';
import type { ChartData } from './rollout';

/**
 * A chart's numbers as a table: each non-empty bar is a link to the same filtered table a click on it
 * opens, so the charts work from the keyboard and with a screen reader.
 */
export function ChartTable({ chart }: { chart: ChartData }) {
  const { token } = theme.useToken();
  const cell: CSSProperties = { padding: '4px 8px', borderBottom: `1px solid ${token.colorBorderSecondary}`, textAlign: 'right', whiteSpace: 'nowrap' };
  const head: CSSProperties = { ...cell, fontWeight: token.fontWeightStrong, background: token.colorFillAlter };
  const weekly = !chart.horizontal;
  return (
    <div style={{ maxHeight: 280, overflow: 'auto' }}>
      <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: token.fontSizeSM }} data-chart-table={chart.id}>
        <caption style={{ textAlign: 'left', paddingBottom: 4, color: token.colorTextSecondary }}>
          {chart.title} ({chart.unit})
        </caption>
        <thead>
          <tr>
            <th scope="col" style={{ ...head, textAlign: 'left' }}>
              {weekly ? 'Week' : 'Name'}
            </th>
            {chart.series.map((s) => (
              <th key={s.key} scope="col" style={head}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.categories.map((category, index) => (
            <tr key={category}>
              <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'normal' }}>
                {category}
              </th>
              {chart.series.map((s) => {
                const value = s.values[index] ?? 0;
                const link = s.links[index];
                return (
                  <td key={s.key} style={cell}>
                    {link ? (
                      <Link to={link} aria-label={`${s.label}, ${category}: ${value} ${chart.unit}. Open the filtered table`}>
                        {formatCount(value)}
                      </Link>
                    ) : (
                      formatCount(value)
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
