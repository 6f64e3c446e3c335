// A plain `hookline fire` command line is read with Node's own parser (src/cli/fire-command.ts);
// it must give the fire exactly what commander gives it, and leave everything else to commander.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { plainFire } from '../../src/cli/fire-command.js';
import { addFire } from '../../src/cli/program.js';
import type { FireOptions } from '../../src/cli/fire.js';

/** What commander hands the fire action for these arguments, or undefined when it refuses them. */
async function commanderReads(argv: string[]): Promise<{ event: string; opts: FireOptions } | undefined> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  addFire(program);
  const fire = program.commands.find((c) => c.name() === 'fire')!;
  let got: { event: string; opts: FireOptions } | undefined;
  fire.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  fire.action((event: string, opts: FireOptions) => {
    got = { event, opts: { ...opts } };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return undefined;
  }
  return got;
}

const SAME = [
  ['fire', 'BeforeTool'],
  ['fire', 'BeforeTool', '--input', 'in.json'],
  ['fire', '--input=in.json', 'BeforeTool'],
  ['fire', 'BeforeTool', '--input', '-'],
  ['fire', 'PreToolUse', '--dialect', 'claude', '--plugin-dir', 'a', '--plugin-dir=b', '--session-id', 's1'],
  ['fire', 'BeforeTool', '--cwd', 'x', '--cwd', 'y'],
  [
    'fire',
    'BeforeModel',
    '--transcript-path',
    't.jsonl',
    '--config',
    'c.json',
    '--model',
    'scripted:m.json',
    '--base-url',
    'http://127.0.0.1:1',
  ],
  ['fire', '--', 'BeforeTool'],
  ['fire', 'BeforeTool', '--input', ''],
];

for (const argv of SAME) {
  test(`read as commander reads it: ${argv.join(' ')}`, async () => {
    const plain = plainFire(argv);
    assert.ok(plain, 'read without commander');
    assert.deepEqual(plain, await commanderReads(argv));
  });
}

const LEFT_TO_COMMANDER = [
  ['fire'],
  ['fire', 'BeforeTool', 'extra'],
  ['fire', 'BeforeTool', '--help'],
  ['fire', '-h'],
  ['fire', 'BeforeTool', '--bogus'],
  ['fire', 'BeforeTool', '--input'],
  ['fire', 'BeforeTool', '--input', '-x.json'],
  ['list'],
];

for (const argv of LEFT_TO_COMMANDER) {
  test(`left to commander: ${argv.join(' ')}`, () => {
    assert.equal(plainFire(argv), undefined);
  });
}
