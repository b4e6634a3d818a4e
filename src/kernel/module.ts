/**
 * What every module's plugin receives from the app. Kept in the kernel, not in a module's
 * index.ts, so a module's routes can name it without importing the module's own entry point
 * (which imports them back).
 */
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}
