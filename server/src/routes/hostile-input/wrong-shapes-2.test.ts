import { part, table } from './sweep-kit.js';
import { wrongShapeSweep } from './sweeps.js';

wrongShapeSweep('part 2 of 3', part(table, 1, 3));
