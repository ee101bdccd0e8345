import { part } from './sweep-kit.js';
import { apiOperations, plausibleSweep } from './sweeps.js';

// A sixth of the operations each: together more than 200 calls, as the whole sweep had to make.
plausibleSweep('part 4 of 6', part(apiOperations, 3, 6), 34);
