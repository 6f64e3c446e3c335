/** Claude Code's hooks: settings, matchers, command hooks, exit codes, JSON output, and the translation to the core's model. */
export * from './events.js';
export * from './matcher.js';
export * from './config.js';
export * from './output.js';
export * from './run.js';
export * from './translate.js';
