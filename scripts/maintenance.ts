/** Entry of `npm run maintenance` (see maintenance-cli.ts). */
import { runMaintenanceCli } from './maintenance-cli.js';

process.exitCode = await runMaintenanceCli(process.argv.slice(2), process.env, (text) => process.stdout.write(text));
