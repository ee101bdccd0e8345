import { part } from './sweep-kit.js';
import { apiOperations, plausibleSweep } from './sweeps.js';

// A sixth of the operations each: together more than 200 calls, as the whole sweep had to make.
plausibleSweep('part 3 of 6', part(apiOperations, 2, 6), 34);
