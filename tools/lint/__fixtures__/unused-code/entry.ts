// The entry point of a fixture project: it uses one export of ./used and never imports ./orphan.
import { used } from './used';

process.stdout.write(used({ name: 'fixture' }));
