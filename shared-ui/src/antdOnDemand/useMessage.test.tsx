import { act, render, screen, waitFor } from '@testing-library/react';
import type { MessageInstance } from 'antd/es/message/interface';
import useMessageOnDemand from './useMessage';

// A lazy chunk and antd's first render can take seconds when the whole suite shares two cores.
const LOADED = { timeout: 15_000 };

function renderWithMessages() {
  const handle: { api: MessageInstance | null } = { api: null };
  function Page() {
    const [api, holder] = useMessageOnDemand();
    handle.api = api;
    return <>{holder}</>;
  }
  render(<Page />);
  return () => handle.api!;
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
