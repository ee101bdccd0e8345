import { table } from './sweep-kit.js';
import { trpcSweep } from './sweeps.js';

trpcSweep(table);
