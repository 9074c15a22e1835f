import { act, screen, waitFor } from '@testing-library/react';
import type { MessageInstance } from 'antd/es/message/interface';
import { LOADED, renderHookPage } from '../testing/onDemandHooks';
import useMessageOnDemand from './useMessage';

function renderWithMessages() {
  const page = renderHookPage<MessageInstance>(() => useMessageOnDemand());
  return () => page.api!;
}

test('a message shows once antd’s hook has loaded, and its closer closes it', async () => {
  const api = renderWithMessages();
  let close: ReturnType<MessageInstance['info']> | undefined;
  act(() => {
    close = api().info('Copied', 0);
  });
  expect(await screen.findByText('Copied', {}, LOADED)).toBeInTheDocument();
  act(() => close!());
  await waitFor(() => expect(screen.queryByText('Copied')).not.toBeInTheDocument(), LOADED);
});

test('a message settles when antd’s own does, once it has gone', async () => {
  const api = renderWithMessages();
  const settled = jest.fn();
  act(() => void api().success('Brief', 0.05).then(settled));
  expect(await screen.findByText('Brief', {}, LOADED)).toBeInTheDocument();
  await waitFor(() => expect(settled).toHaveBeenCalledWith(true), LOADED);
});

test('a message closed before antd’s hook has loaded never stays on screen', async () => {
  const api = renderWithMessages();
  act(() => {
    const close = api().warning('Gone', 0);
    close();
  });
  act(() => void api().success('Shown', 0));
  expect(await screen.findByText('Shown', {}, LOADED)).toBeInTheDocument();
  expect(screen.queryByText('Gone')).not.toBeInTheDocument();
});
