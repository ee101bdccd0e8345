import { table } from './sweep-kit.js';
import { headerSweep } from './sweeps.js';

headerSweep(table);
