export * from './common.js';
export * from './tool.js';
export * from './agent.js';
export * from './model.js';
export * from './session.js';
