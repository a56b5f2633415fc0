// `npm run bench`: every benchmark in one run, each reporting ratios against a baseline it
// measures itself in the same run. Pass suite names to run some: `npm run bench -- store search`.
import { runColdStartBench } from './coldstart.js';
import { runEditBench } from './edit.js';
import { runExportBench } from './export.js';
import { runLayoutBench } from './layout.js';
import { runFsyncBench } from './fsync.js';
import { runHistoryBench } from './history.js';
import { runImportBench } from './import.js';
import { runMcpBench } from './mcp.js';
import { runPushBench } from './push.js';
import { runSavedStateBench } from './saved-state.js';
import { runStormBench } from './storm.js';
import { runControlPlaneBench, runReplicasBench } from './replicas.js';
import { runRelevanceBench } from './relevance.js';
import { runSearchBench } from './search.js';
import { runSqliteDriversBench } from './sqlite-drivers.js';
import { runStoreBench } from './store.js';
import { runTenantsBench } from './tenants.js';
import { runWebhooksBench } from './webhooks.js';
import { runWebBench } from './web.js';

const SUITES: Record<string, () => Promise<void>> = {
  store: runStoreBench,
  layout: runLayoutBench,
  search: runSearchBench,
  relevance: runRelevanceBench,
  mcp: runMcpBench,
  replicas: async () => console.log(await runReplicasBench()),
  coldstart: runColdStartBench,
  edit: runEditBench,
  fsync: runFsyncBench,
  storm: runStormBench,
  'saved-state': runSavedStateBench,
  tenants: runTenantsBench,
  history: runHistoryBench,
  import: runImportBench,
  export: runExportBench,
  'control-plane': async () => console.log(await runControlPlaneBench()),
  'sqlite-drivers': async () => console.log(await runSqliteDriversBench()),
  webhooks: runWebhooksBench,
  web: runWebBench,
  push: runPushBench,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in SUITES));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
console.log(`Specbase benchmarks, ${new Date().toISOString()}, node ${process.version}`);
for (const name of requested.length ? requested : Object.keys(SUITES)) {
  console.log(`\n=== ${name}`);
  await SUITES[name]!();
}
