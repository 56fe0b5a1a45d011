// `npm run replay`: folds INSTANCE_ID's history from the service's log into this app's own audit
// value (audit.ts) and prints it as one JSON line: {"instanceid", "events", ...}.
import { replayInstance } from './audit.js';
import { required, withGatewayStore } from './environment.js';

const instanceId = required('INSTANCE_ID');
const audit = await withGatewayStore((store) => replayInstance(store, instanceId));
if (audit) console.log(JSON.stringify(audit));
else {
  process.stderr.write(`no history for instance ${instanceId}\n`);
  process.exitCode = 1;
}
