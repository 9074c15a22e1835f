import { Outlet } from 'react-router-dom';

/** Error pages: nothing around them, so they render even when the rest of the console cannot. */
export function BareLayout() {
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Outlet />
    </main>
  );
}
