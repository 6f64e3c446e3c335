/** SpatialAgent's hooks (seed 004): settings, matchers, bash and prompt hooks, decisions. */
export * from './events.js';
export * from './config.js';
export * from './variables.js';
export * from './matcher.js';
export * from './decision.js';
export * from './run.js';
