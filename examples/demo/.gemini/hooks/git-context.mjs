#!/usr/bin/env node
// BeforeAgent: adds the branch and the last commits to the prompt as context.
import { execFileSync } from 'node:child_process';
import { readEvent } from './read-event.mjs';
const event = await readEvent();
const git = (...args) => {
  try {
    return execFileSync('git', ['-C', event.cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};
const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
const log = git('log', '--oneline', '-3');
const context = branch ? `Git branch: ${branch}\nRecent commits:\n${log}` : 'Not a git repository.';
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: context } }));
