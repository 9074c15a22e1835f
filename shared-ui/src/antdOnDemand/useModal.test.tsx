import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { HookAPI } from 'antd/es/modal/useModal';
import { LOADED, renderHookPage } from '../testing/onDemandHooks';
import useModalOnDemand from './useModal';

// antd draws a confirm dialog's title twice (the dialog's accessible name and the visible one), hence the *AllBy* queries.
function renderWithModal() {
  const page = renderHookPage<HookAPI>(() => useModalOnDemand());
  return () => page.api!;
}

test('a dialog asked for before antd’s hook has loaded opens once it has, and its confirmation says which button closed it', async () => {
  const api = renderWithModal();
  let confirmed: Promise<boolean> | undefined;
  act(() => {
    confirmed = api()
      .confirm({ title: 'Delete operator?', okText: 'Delete' })
      .then(
        (ok) => ok,
        () => undefined,
      );
  });
  expect(await screen.findAllByText('Delete operator?', {}, LOADED)).not.toHaveLength(0);
  expect(screen.getByText('Page')).toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
  await expect(confirmed).resolves.toBe(true);
});

test('cancel confirms false; a second dialog opens straight away on the loaded hook', async () => {
  const api = renderWithModal();
  let first: Promise<boolean> | undefined;
  act(() => {
    first = api()
      .confirm({ title: 'First?', cancelText: 'Keep' })
      .then(
        (ok) => ok,
        () => undefined,
      );
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Keep' }, LOADED));
  await expect(first).resolves.toBe(false);

  act(() => void api().info({ title: 'Second' }));
  expect(await screen.findAllByText('Second', {}, LOADED)).not.toHaveLength(0);
});

test('update and destroy called before the dialog has opened reach it once it does', async () => {
  const api = renderWithModal();
  act(() => {
    const instance = api().confirm({ title: 'Before' });
    instance.update({ title: 'After' });
  });
  expect(await screen.findAllByText('After', {}, LOADED)).not.toHaveLength(0);
  expect(screen.queryAllByText('Before')).toHaveLength(0);

  let closing: ReturnType<HookAPI['warning']> | undefined;
  act(() => {
    closing = api().warning({ title: 'Going away' });
  });
  expect(await screen.findAllByText('Going away', {}, LOADED)).not.toHaveLength(0);
  act(() => closing!.destroy());
  await waitFor(() => expect(screen.queryAllByText('Going away')).toHaveLength(0), LOADED);
});
