import { act, render, screen, waitFor } from '@testing-library/react';
import type { NotificationInstance } from 'antd/es/notification/interface';
import useNotificationOnDemand from './useNotification';

// A lazy chunk and antd's first render can take seconds when the whole suite shares two cores.
const LOADED = { timeout: 15_000 };

function renderWithNotifications() {
  const handle: { api: NotificationInstance | null; holderDrawn: boolean } = { api: null, holderDrawn: false };
  function Page() {
    const [api, holder] = useNotificationOnDemand({ placement: 'bottomRight', maxCount: 3, duration: 0 });
    handle.api = api;
    handle.holderDrawn = holder !== null;
    return (
      <>
        <p>Page</p>
        {holder}
      </>
    );
  }
  render(<Page />);
  return handle;
}

test('nothing of antd’s notifications is drawn until the first toast; toasts asked for meanwhile show in order', async () => {
  const page = renderWithNotifications();
  expect(page.holderDrawn).toBe(false);

  act(() => {
    page.api!.success({ title: 'Saved' });
    page.api!.error({ title: 'Failed' });
  });
  expect(page.holderDrawn).toBe(true);
  const titles = await screen.findAllByText(/^(Saved|Failed)$/, {}, LOADED);
  expect(titles.map((t) => t.textContent)).toEqual(['Saved', 'Failed']);

  act(() => page.api!.info({ title: 'Later', key: 'later' }));
  expect(await screen.findByText('Later', {}, LOADED)).toBeInTheDocument();
  act(() => page.api!.destroy('later'));
  await waitFor(() => expect(screen.queryByText('Later')).not.toBeInTheDocument(), LOADED);
});
