import fs from 'node:fs';
import path from 'node:path';
import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { ConsoleProviders } from '../widgets/ConsoleProviders';
import { TOAST_MAX_COUNT, useToasts, type Toasts } from './toasts';

const ROOT = path.resolve(__dirname, '../../..');

/** Source files of the browser packages whose toasts go through `useToasts`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('toasts', () => {
  test('bottom right, at most three at once', () => {
    let toasts: Toasts | undefined;
    function Grab() {
      const t = useToasts();
      useEffect(() => {
        toasts = t;
      }, [t]);
      return null;
    }
    render(
      <ConsoleProviders>
        <Grab />
      </ConsoleProviders>,
    );
    act(() => {
      for (const n of [1, 2, 3, 4]) toasts!.success(`Saved ${n}`);
      toasts!.error('Failed');
    });
    const corner = document.querySelector('.ant-notification-bottomRight');
    expect(corner).not.toBeNull();
    const shown = Array.from(corner!.querySelectorAll('.ant-notification-notice')).map((n) => n.textContent);
    expect(shown).toHaveLength(TOAST_MAX_COUNT);
    expect(shown).toContain('Failed');
  });

  test("no page of these packages shows a toast any other way (antd's message sits top centre)", () => {
    const strays = ['shell/src', 'shared-ui/src', 'mfe-tracking/src', 'mfe-management/src']
      .flatMap((dir) => sources(path.join(ROOT, dir)))
      .filter((file) => !file.endsWith(path.join('toasts', 'toasts.ts')))
      .filter((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return /\{[^}]*\b(message|notification)\b[^}]*\}\s*=\s*App\.useApp\(\)/.test(text) || /\bmessage\.(success|error|info|warning|open)\(/.test(text);
      })
      .map((file) => path.relative(ROOT, file));
    expect(strays).toEqual([]);
  });
});
