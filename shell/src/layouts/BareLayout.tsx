import { Outlet } from 'react-router-dom';
import { SCREEN_HEIGHT } from '../widgets/CookieConsent';

/** Error pages: nothing around them, so they render even when the rest of the console cannot. */
export function BareLayout() {
  return (
    <main style={{ minHeight: SCREEN_HEIGHT, display: 'grid', placeItems: 'center' }}>
      <Outlet />
    </main>
  );
}
