// `npm run dev`: the API (restarting on change) and every webpack dev server with live reload.
// The shell dev server (3000) proxies /api and /config to the API; open http://localhost:3000.
import { ensureDependencies, run } from './lib.mjs';

await ensureDependencies();
const remotes = ['mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management'];
const commands = [
  { name: 'api', command: 'npm run dev -w api' },
  { name: 'shell', command: 'npm run dev -w shell' },
  ...remotes.map((r) => ({ name: r, command: `npm run dev -w ${r}` })),
];
// The API tells the shell to load each remote from its dev server, so remote edits reload live too.
const devRemoteUrls = {
  REMOTE_TRACKING_URL: 'http://localhost:3001/mf-manifest.json',
  REMOTE_PLANNING_VALIDATION_URL: 'http://localhost:3002/mf-manifest.json',
  REMOTE_MONITORING_URL: 'http://localhost:3003/mf-manifest.json',
  REMOTE_MANAGEMENT_URL: 'http://localhost:3004/mf-manifest.json',
};
await run('npx', ['concurrently', '--kill-others-on-fail', '--names', commands.map((c) => c.name).join(','), ...commands.map((c) => c.command)], {
  env: devRemoteUrls,
});
