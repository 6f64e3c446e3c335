#!/usr/bin/env node
// `hookline fire` on its own: the installed command starts this bundle for `fire`, so an event
// loads only what firing it needs (scripts/bundle.mjs). A plain command line is read without
// commander; help and mistakes go to the program, which answers them as the full CLI does.
import { plainFire, runFire } from './fire-command.js';
import { runProgram } from './run-program.js';

const plain = plainFire(process.argv.slice(2));
// No top-level await: the bundled CLI is CommonJS, so its compiled code can be cached.
void runProgram(
  plain
    ? () => runFire(plain.event, plain.opts)
    : async () => {
        const { addFire, newProgram, parseWith } = await import('./program.js');
        const program = newProgram();
        addFire(program);
        await parseWith(program)();
      },
);
