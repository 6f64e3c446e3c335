export * from './names.js';
export * from './model.js';
export * from './input.js';
export * from './output.js';
export * from './catalog.js';
