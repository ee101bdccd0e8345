import { part, table } from './sweep-kit.js';
import { wrongShapeSweep } from './sweeps.js';

wrongShapeSweep('part 1 of 3', part(table, 0, 3));
