/**
 * The settings schemas (zod), for what the plain checks of src/config/plain.ts cannot vouch for.
 * Here they load with this module; the bundled CLI turns this module into one that loads them on
 * first call (scripts/bundle.mjs), so a fire with plainly valid settings never loads zod.
 */
import * as schema from './schema.js';

export const settingsSchemas = (): typeof schema => schema;
