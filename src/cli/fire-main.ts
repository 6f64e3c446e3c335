#!/usr/bin/env node
// `hookline fire` on its own: the installed command starts this bundle for `fire`, so an event
// loads only what firing it needs (scripts/bundle.mjs).
import { addFire, newProgram, runProgram } from './program.js';

const program = newProgram();
addFire(program);
// No top-level await: the bundled CLI is CommonJS, so its compiled code can be cached.
void runProgram(program);
