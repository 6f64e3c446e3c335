// validate names a Claude Code tool matcher that misspells a tool (the hook would never run), and
// nothing else: a tool it does not know may be real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeMatcherHint } from '../../src/dialects/claude/hints.js';

test('a near miss of a Claude Code tool gets "did you mean"; known names, patterns, MCP and unknown tools get nothing', () => {
  assert.match(claudeMatcherHint('bash') ?? '', /"bash" is no Claude Code tool .* did you mean "Bash"\?$/);
  assert.match(claudeMatcherHint('Edit|Wirte') ?? '', /"Wirte" .* did you mean "Write"\?$/);
  assert.match(claudeMatcherHint('webfetch') ?? '', /did you mean "WebFetch"\?$/);
  for (const fine of [
    'Bash',
    'Edit|Write|MultiEdit',
    'mcp__github__.*',
    'Notebook.*',
    '*',
    '',
    'LSP',
    'TaskOutput',
    'FooTool',
    'deploy_app',
  ])
    assert.equal(claudeMatcherHint(fine), undefined, fine);
});
