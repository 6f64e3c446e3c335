/**
 * The event input schemas (zod), for inputs the plain checks cannot vouch for. Here they load
 * with this module; the bundled CLI loads them on first call instead (scripts/bundle.mjs).
 */
import * as input from './input.js';

export const inputSchemas = (): typeof input => input;
