import { createRoot } from 'react-dom/client';
import { ConsoleProviders } from 'shared-ui';
import { ConsoleApp } from './ConsoleApp';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <ConsoleProviders>
    <ConsoleApp />
  </ConsoleProviders>,
);
