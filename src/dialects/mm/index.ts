/** mm's hooks (seed 002): configuration, chains, and the texts a turn shows after them. */
export * from './events.js';
export * from './duration.js';
export * from './config.js';
export * from './input.js';
export * from './response.js';
export * from './effects.js';
export * from './display.js';
export * from './chain.js';
