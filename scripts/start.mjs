// `npm start`: install what is missing, build what is stale, then run the console (the API migrates and seeds on start).
import { ensureDependencies, run, step } from './lib.mjs';
import { buildStale } from './build.mjs';

await ensureDependencies();
await buildStale();
step('Starting Cellwise');
await run('node', ['api/dist/main.js']).catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
