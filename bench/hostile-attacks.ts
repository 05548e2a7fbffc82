/** Every row of `bench:hostile`, in the order of the table. */
import type { Attack } from './hostile-attack.js';
import { COMPILE_ATTACKS } from './hostile-compile.js';
import { argumentlessToolCalls } from './hostile-model.js';
import { workerRetryReports } from './hostile-redis.js';
import { RUN_ATTACKS } from './hostile-run.js';

export const ATTACKS: readonly Attack[] = [
  ...COMPILE_ATTACKS,
  ...RUN_ATTACKS,
  argumentlessToolCalls,
  workerRetryReports,
];
