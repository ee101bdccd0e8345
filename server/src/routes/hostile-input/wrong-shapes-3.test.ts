import { part, table } from './sweep-kit.js';
import { wrongShapeSweep } from './sweeps.js';

wrongShapeSweep('part 3 of 3', part(table, 2, 3));
