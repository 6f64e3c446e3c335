// Ctrl-C at an approval question ("Allow …? [y/N]") under a real terminal (tmux): the question is
// answered "no" at once and the turn is cancelled, so the next line typed is a new prompt, not
// the answer. Waits for the screen to show each step, never for a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

test('Ctrl-C at "Allow …? [y/N]" cancels the question and the turn; the next line is a prompt', {
  skip: !hasTmux && 'tmux not installed',
}, async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-ctrlc-'));
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  const marker = path.join(base, 'ran');
  const script = path.join(base, 'script.jsonl');
  fs.writeFileSync(
    script,
    [
      JSON.stringify({ toolCalls: [{ name: 'run_shell_command', args: { command: `touch ${sq(marker)}` } }] }),
      JSON.stringify({ text: 'second prompt answered\n' }),
    ].join('\n') + '\n',
  );
  const session = `hl-ctrlc-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', session, ...args], { encoding: 'utf8' });
  const command = `cd ${sq(dir)} && HOME=${sq(home)} GEMINI_CLI_HOME=${sq(home)} NO_COLOR=1 ${sq(process.execPath)} ${sq(CLI)} agent --model ${sq(`scripted:${script}`)}; echo "exit=$?"; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '50', command);
  t.after(() => spawnSync('tmux', ['-L', session, 'kill-server']));
  const screen = () => tmux('capture-pane', '-p', '-t', session, '-S', '-100');
  /** Waits until the screen shows `re` (re-reading it as the terminal redraws). */
  const waitFor = async (re: RegExp) => {
    for (let i = 0; i < 2000; i++) {
      const s = screen();
      if (re.test(s)) return s;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`the terminal never showed ${re}:\n${screen()}`);
  };
  await waitFor(/^>\s*$/m);
  tmux('send-keys', '-t', session, 'clean up', 'Enter');
  await waitFor(/Allow .*\[y\/N\]/);
  tmux('send-keys', '-t', session, 'C-c');
  await waitFor(/\^C[\s\S]*^>\s*$/m);
  assert.equal(fs.existsSync(marker), false, 'the tool did not run');
  // The next line is a prompt to the model, not the answer to the cancelled question.
  tmux('send-keys', '-t', session, 'y', 'Enter');
  await waitFor(/second prompt answered/);
  assert.equal(fs.existsSync(marker), false, '"y" was not taken as the answer');
  tmux('send-keys', '-t', session, '/exit', 'Enter');
  const end = await waitFor(/exit=\d+/);
  assert.match(end, /exit=0/);
});
