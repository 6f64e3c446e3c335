// What a finished `async` Claude Code hook answers (systemMessage, additionalContext) is kept for
// the session's next turn; a failed run, an asyncRewake wake-up (exit 2) and a suppressed message are not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fireClaude, parseClaudeSettings, type ClaudeConfig } from '../../src/dialects/claude/index.js';
import { ClaudeSession } from '../../src/dialects/claude/background.js';
import { q, tmpDir } from './util.js';

const say = (o: unknown, code = 0) => `cat > /dev/null; echo ${q(JSON.stringify(o))}; exit ${code}`;

function configOf(hooks: Array<Record<string, unknown>>): ClaudeConfig {
  const r = parseClaudeSettings(
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: hooks }] } }),
    'settings.json',
    'project',
  );
  assert.deepEqual(
    r.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return { files: [], hooks: r.hooks, problems: [] };
}

describe('Claude Code async hook output for the next turn', () => {
  test('exit 0 with systemMessage / additionalContext is noted; errors, the exit 2 of asyncRewake and suppressOutput are not', async () => {
    const ctx = (c: string) => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: c } });
    const config = configOf([
      { type: 'command', command: say({ systemMessage: 'lint done', decision: 'block', reason: 'no', ...ctx('2 warnings') }), async: true },
      { type: 'command', command: say(ctx('only context')), async: true },
      { type: 'command', command: say({ systemMessage: 'quiet', suppressOutput: true }), async: true },
      { type: 'command', command: say({ systemMessage: 'failed run' }, 1), async: true },
      { type: 'command', command: say({ systemMessage: 'rewake' }, 2), asyncRewake: true },
    ]);
    const session = new ClaudeSession();
    const r = await fireClaude(
      config,
      'PostToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {} },
      // An interactive session: the asyncRewake hook runs in the background too.
      { projectDir: tmpDir(), session, rewakeInBackground: true },
    );
    // Nothing decided: the block of a background hook is not honoured.
    assert.equal(r.output.decision, undefined);
    await session.settle();
    const notes = session.drainNotes().map(({ event, context, systemMessage }) => ({ event, context, systemMessage }));
    const sorted = notes.sort((a, b) => String(a.context).localeCompare(String(b.context)));
    assert.deepEqual(sorted, [
      { event: 'PostToolUse', context: '2 warnings', systemMessage: 'lint done' },
      { event: 'PostToolUse', context: 'only context', systemMessage: undefined },
    ]);
    assert.deepEqual(session.drainNotes(), []);
    // The asyncRewake hook's exit 2 wakes the agent instead.
    assert.equal(session.pending, 1);
    await session.close();
  });
});
