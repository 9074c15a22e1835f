import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { cellwiseTheme } from '../theme';
import { Callout } from './Callout';
import { InfoBanner } from './InfoBanner';
import { ConsoleProviders } from './ConsoleProviders';

const token = theme.getDesignToken(cellwiseTheme);
/** The browser's rgb() of a theme colour, as jsdom reports computed inline styles. */
function rgb(hex: string): string {
  const probe = document.createElement('div');
  probe.style.color = hex;
  return probe.style.color;
}

describe('Callout', () => {
  test('says what went wrong as an alert, in the theme’s error colours, without antd’s Alert', () => {
    render(
      <ConsoleProviders>
        <Callout type="error" title="Vodafone PT has no frequency plan" data-testid="refusal" />
      </ConsoleProviders>,
    );
    const box = screen.getByRole('alert');
    expect(box).toHaveTextContent('Vodafone PT has no frequency plan');
    expect(box).toHaveAttribute('data-testid', 'refusal');
    expect(box).toHaveClass('cw-callout-error');
    expect(box.style.background).toBe(rgb(token.colorErrorBg));
    expect(box.style.border).toContain(rgb(token.colorErrorBorder));
    expect(document.querySelector('.ant-alert')).toBeNull();
  });

  test('a banner is a status in the info colours, with its icon hidden from assistive technology', () => {
    render(
      <ConsoleProviders>
        <InfoBanner label="Last import" date="2026-03-04T05:06:07" fallback="Import date unavailable!" />
      </ConsoleProviders>,
    );
    const box = screen.getByRole('status');
    expect(box).toHaveClass('cw-callout-info');
    expect(box.style.background).toBe(rgb(token.colorInfoBg));
    expect(box.querySelector('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
