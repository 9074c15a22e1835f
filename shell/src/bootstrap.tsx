import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleProviders } from 'shared-ui';
import { applyAntdStylesheet } from './antdStylesheet';
import { ConsoleApp } from './ConsoleApp';
import { takeHandedOverToken } from './session/tokenHandoff';

// Before the router reads the address: a tab opened with the session in it (the job dashboard link).
takeHandedOverToken();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
// Rendered as a transition, React works in slices and lets the browser in between: the start frame
// (index.html) is already on the screen, and a phone's main thread is never held for the whole tree.
// Not before antd's stylesheet applies (zero-runtime antd: components no longer write their own CSS).
void applyAntdStylesheet().then(() =>
  startTransition(() =>
    root.render(
      <ConsoleProviders>
        <ConsoleApp />
      </ConsoleProviders>,
    ),
  ),
);
