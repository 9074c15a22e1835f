import { act, screen, waitFor } from '@testing-library/react';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { LOADED, renderHookPage } from '../testing/onDemandHooks';
import useNotificationOnDemand from './useNotification';

const renderWithNotifications = () =>
  renderHookPage<NotificationInstance>(() => useNotificationOnDemand({ placement: 'bottomRight', maxCount: 3, duration: 0 }));

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
