import { render } from '@testing-library/react';
import { Tag } from 'antd';
import { ConsoleProviders } from '../widgets/ConsoleProviders';

/** WCAG's contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

// The colours a preset tag (<Tag color="green">) draws: its palette's 7th shade as text on the 1st.
const TAG_COLOURS = ['red', 'volcano', 'orange', 'gold', 'yellow', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple', 'magenta'] as const;

/**
 * The CSS variables the console's providers write at run time, which antd's static stylesheet reads
 * (zero-runtime mode). Read from the page, not from theme.getDesignToken: that one honoured a
 * `token.green7` the run-time variables did not.
 */
function writtenVariables(): Map<string, string> {
  render(
    <ConsoleProviders>
      <Tag color="green">OK</Tag>
    </ConsoleProviders>,
  );
  const css = Array.from(document.querySelectorAll('style'), (s) => s.textContent ?? '').join('\n');
  return new Map(Array.from(css.matchAll(/(--ant-[a-z0-9-]+):([^;}]+)/g), (m) => [m[1]!, m[2]!.trim().toLowerCase()]));
}

describe('the console theme', () => {
  test.each(TAG_COLOURS)('a %s tag reads at WCAG AA (4.5:1)', (colour) => {
    const variables = writtenVariables();
    const text = variables.get(`--ant-${colour}-7`);
    const background = variables.get(`--ant-${colour}-1`);
    expect([text, background]).toEqual([expect.stringMatching(/^#[0-9a-f]{6}$/), expect.stringMatching(/^#[0-9a-f]{6}$/)]);
    expect(contrast(text!, background!)).toBeGreaterThanOrEqual(4.5);
  });

  test('the palettes keep their other shades, and the brand its colours', () => {
    const variables = writtenVariables();
    expect(variables.get('--ant-green-1')).toBe('#f6ffed');
    expect(variables.get('--ant-green-6')).toBe('#52c41a');
    expect(variables.get('--ant-color-primary')).toBe('#0b6e79');
    expect(variables.get('--ant-color-error')).toBe('#cf1322');
  });
});
