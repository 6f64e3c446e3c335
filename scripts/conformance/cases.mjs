// Differential conformance cases: the same settings and input are fired through the reference
// engine (scripts/conformance/reference.mjs writes test/conformance/golden.json) and through
// `hookline fire` (test/conformance/conformance.test.ts compares the two).
//
// A case: { name, event, settings (the `hooks` block), input (the event's own fields, wire names),
//   disabled? (hooksConfig.disabled), fix? (why Hookline differs on purpose) with
//   hooklineExpected? (the parts of the result Hookline gives instead: `output`, `runs`),
//   todo? (a known disagreement outside the engine core, reported but not yet fixed) }.
// Hooks are shell commands; fixture scripts live in test/fixtures/hooks/ and are reached through
// $CONF_HOOKS, set by both runners, so the command strings (and dedupe keys) are location-free.
// A hook run through conf-capture.sh saves its stdin as stdin-<label>.json in its cwd; both
// runners record those files with volatile fields (timestamp, session_id) removed and cwd
// replaced by "<cwd>".

import fs from 'node:fs';
import path from 'node:path';

/**
 * The inputs captured by conf-capture.sh in `dir`, by label, with the fields that change from run
 * to run removed (timestamp, session_id) and cwd replaced by "<cwd>". Undefined when none.
 */
export function readCaptures(dir) {
  const real = fs.realpathSync(dir);
  const files = fs.readdirSync(dir).filter((f) => /^stdin-.+\.json$/.test(f)).sort();
  if (!files.length) return undefined;
  const captured = {};
  for (const f of files) {
    const input = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    delete input.timestamp;
    delete input.session_id;
    if (input.cwd === dir || input.cwd === real) input.cwd = '<cwd>';
    captured[f.slice('stdin-'.length, -'.json'.length)] = input;
  }
  return captured;
}

/** Single-quotes a string for bash. */
const sq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command hook printing `value` (JSON unless a string) and exiting with `exit`. */
function out(value, exit, extra = {}) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { type: 'command', command: `echo ${sq(text)}${exit === undefined ? '' : `; exit ${exit}`}`, ...extra };
}

/** A raw shell command hook. */
const sh = (command, extra = {}) => ({ type: 'command', command, ...extra });

/** A hook that records its stdin as stdin-<label>.json, then prints `value` and exits with `exit`. */
function cap(label, value, exit, extra = {}) {
  const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const args = [label, ...(text || exit !== undefined ? [sq(text)] : []), ...(exit !== undefined ? [String(exit)] : [])];
  return { type: 'command', command: `"$CONF_HOOKS/conf-capture.sh" ${args.join(' ')}`, ...extra };
}

/** One definition per hook, no matcher. */
const defs = (...hooks) => hooks.map((h) => ({ hooks: [h] }));
const seqDefs = (...hooks) => [{ sequential: true, hooks }];

const BT = { tool_name: 'run_shell_command', tool_input: { command: 'ls -la' } };
const AT = {
  tool_name: 'read_file',
  tool_input: { absolute_path: '/src/a.txt' },
  tool_response: { llmContent: 'hello', returnDisplay: 'hello' },
};
const BA = { prompt: 'fix the failing test' };
const AA = { prompt: 'fix the failing test', prompt_response: 'Done: the test passes now.', stop_hook_active: false };
const REQ = {
  model: 'gemini-2.5-flash',
  messages: [
    { role: 'user', content: 'What is in README.md?' },
    { role: 'model', content: 'Let me look.' },
  ],
  config: { temperature: 0.2, maxOutputTokens: 1024 },
};
const RESP = {
  text: 'It is a hooks runtime.',
  candidates: [{ content: { role: 'model', parts: ['It is a hooks runtime.'] }, finishReason: 'STOP', index: 0 }],
};
const NOTE = {
  notification_type: 'ToolPermission',
  message: 'Tool Shell requires execution',
  details: { type: 'exec', title: 'Shell', command: 'rm -rf build', rootCommand: 'rm' },
};

export const cases = [
  // ---- OR-merge (BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart) ----
  { name: 'or/deny-and-allow', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'allow' }), out({ decision: 'deny', reason: 'rm is not allowed' })) } },
  { name: 'or/later-block-overwrites-deny', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'deny', reason: 'first' }), out({ decision: 'block', reason: 'second' })) } },
  { name: 'or/ask-then-block', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'ask', systemMessage: 'confirm?' }), out({ decision: 'block', reason: 'no' })) } },
  { name: 'or/block-then-ask', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'block', reason: 'no' }), out({ decision: 'ask' }), out({ decision: 'allow' })) } },
  { name: 'or/ask-and-allow', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'allow' }), out({ decision: 'ask', systemMessage: 'please confirm' })) } },
  { name: 'or/continue-false-stop-reasons-joined', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(
      out({ continue: false, stopReason: 'budget exhausted' }),
      out({ decision: 'allow' }),
      out({ continue: true, stopReason: 'ignored when continuing' }),
      out({ continue: false, stopReason: 'policy' })) } },
  { name: 'or/continue-false-without-reason', event: 'AfterAgent', input: AA,
    settings: { AfterAgent: defs(out({ continue: false }), out({ systemMessage: 'noted' })) } },
  { name: 'or/reason-and-system-message-joined', event: 'AfterTool', input: AT,
    settings: { AfterTool: defs(
      out({ decision: 'deny', reason: 'r1', systemMessage: 'm1' }),
      out({ reason: 'r2' }),
      out({ systemMessage: 'm3', reason: '' })) } },
  { name: 'or/suppress-output-any-true', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ suppressOutput: false }), out({ suppressOutput: true }), out({ suppressOutput: false })) } },
  { name: 'or/clear-context-any-true', event: 'AfterAgent', input: AA,
    settings: { AfterAgent: defs(
      out({ hookSpecificOutput: { hookEventName: 'AfterAgent', clearContext: true } }),
      out({ hookSpecificOutput: { hookEventName: 'AfterAgent', clearContext: false, note: 'x' } })) } },
  { name: 'or/clear-context-false-dropped', event: 'AfterAgent', input: AA,
    settings: { AfterAgent: defs(out({ hookSpecificOutput: { clearContext: false } })) } },
  { name: 'or/additional-context-joined', event: 'AfterTool', input: AT,
    settings: { AfterTool: defs(
      out({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'ctx one' } }),
      out({ hookSpecificOutput: { additionalContext: 'ctx two' } }),
      out({ hookSpecificOutput: { additionalContext: 7 } })) } },
  { name: 'or/additional-context-non-string-kept', event: 'SessionStart', input: { source: 'startup' },
    settings: { SessionStart: defs(out({ hookSpecificOutput: { additionalContext: { a: 1 } } })) } },
  { name: 'or/hook-specific-output-shallow-merge', event: 'AfterTool', input: AT,
    settings: { AfterTool: defs(
      out({ hookSpecificOutput: { hookEventName: 'AfterTool', a: { x: 1 }, keep: true } }),
      out({ hookSpecificOutput: { a: { y: 2 }, tailToolCallRequest: { name: 'read_file', args: { absolute_path: '/b' } } } })) } },
  { name: 'or/hook-specific-output-null-ignored', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ hookSpecificOutput: { a: 1 } }), out({ hookSpecificOutput: null })) } },
  { name: 'or/default-decision-allow', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({}), out({ systemMessage: 'looked' })) } },
  { name: 'or/unknown-decision-becomes-allow', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'approve', reason: 'fine' })) } },
  { name: 'or/deny-with-continue-false', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'deny', reason: 'r', continue: false, stopReason: 's' })) } },
  { name: 'or/before-agent-deny-and-context', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: defs(
      out({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'branch: main' } }),
      out({ decision: 'deny', reason: 'prompt contains a secret' })) } },
  { name: 'or/session-start-contexts', event: 'SessionStart', input: { source: 'startup' },
    settings: { SessionStart: defs(
      out({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'a' } }),
      out({ decision: 'block', hookSpecificOutput: { additionalContext: 'b' } })) } },
  { name: 'or/extra-fields-dropped', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ decision: 'allow', extra: 1, tool_input: { x: 1 } })) } },

  // ---- Field replacement (BeforeModel, AfterModel) ----
  { name: 'replace/before-model-later-wins', event: 'BeforeModel', input: { llm_request: REQ },
    settings: { BeforeModel: defs(
      out({ decision: 'deny', reason: 'r1', systemMessage: 's1',
        hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { candidates: [{ content: { role: 'model', parts: ['cached'] } }] } } }),
      out({ reason: 'r2', hookSpecificOutput: { llm_request: { model: 'gemini-2.5-pro' } } })) } },
  { name: 'replace/before-model-hook-specific-always-present', event: 'BeforeModel', input: { llm_request: REQ },
    settings: { BeforeModel: defs(out({ systemMessage: 'seen' })) } },
  { name: 'replace/after-model-later-response-wins', event: 'AfterModel', input: { llm_request: REQ, llm_response: RESP },
    settings: { AfterModel: defs(
      out({ continue: false, hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: ['A'] } }] } } }),
      out({ hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: ['B'] } }] } } }),
      out({ continue: true, suppressOutput: true })) } },
  { name: 'replace/no-output-is-null', event: 'AfterModel', input: { llm_request: REQ, llm_response: RESP },
    settings: { AfterModel: defs(sh('true')) } },

  // ---- BeforeToolSelection ----
  { name: 'tools/none-wins', event: 'BeforeToolSelection', input: { llm_request: REQ },
    settings: { BeforeToolSelection: defs(
      out({ hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } } }),
      out({ hookSpecificOutput: { toolConfig: { mode: 'NONE', allowedFunctionNames: ['a'] } } })) } },
  { name: 'tools/any-sorted-union', event: 'BeforeToolSelection', input: { llm_request: REQ },
    settings: { BeforeToolSelection: defs(
      out({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'ANY', allowedFunctionNames: ['write_file', 'read_file'] } } }),
      out({ hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['glob', 'read_file'] } } })) } },
  { name: 'tools/auto-default', event: 'BeforeToolSelection', input: { llm_request: REQ },
    settings: { BeforeToolSelection: defs(
      out({ systemMessage: 'no tool config' }),
      out({ hookSpecificOutput: { toolConfig: { allowedFunctionNames: ['zeta', 'alpha'] } } })) } },
  { name: 'tools/only-tool-config-survives', event: 'BeforeToolSelection', input: { llm_request: REQ },
    settings: { BeforeToolSelection: defs(out({ decision: 'deny', reason: 'x', systemMessage: 'y', continue: false })) } },

  // ---- Simple merge (SessionEnd, PreCompress, Notification) ----
  { name: 'simple/session-end-later-wins', event: 'SessionEnd', input: { reason: 'exit' },
    settings: { SessionEnd: defs(
      out({ systemMessage: 'a', decision: 'deny', hookSpecificOutput: { x: 1 } }),
      out({ systemMessage: 'b', hookSpecificOutput: { y: 2 } })) } },
  { name: 'simple/pre-compress', event: 'PreCompress', input: { trigger: 'auto' },
    settings: { PreCompress: defs(out({ continue: false, stopReason: 's1' }), out({ stopReason: 's2', suppressOutput: true })) } },
  { name: 'simple/notification-plain-text', event: 'Notification', input: NOTE,
    settings: { Notification: defs(sh('echo first'), sh('echo second >&2; exit 1')) } },

  // ---- Parsing: plain text, stderr, JSON shapes ----
  { name: 'text/exit-0', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('echo hello world')) } },
  { name: 'text/exit-1', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('echo careful; exit 1')) } },
  { name: 'text/exit-2', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('echo not allowed; exit 2')) } },
  { name: 'text/exit-3', event: 'AfterAgent', input: AA, settings: { AfterAgent: defs(sh('echo try again; exit 3')) } },
  { name: 'text/stderr-when-stdout-empty', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('echo blocked by policy >&2; exit 2')) } },
  { name: 'text/stdout-wins-over-stderr', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('echo from stdout; echo from stderr >&2; exit 2')) } },
  { name: 'text/blank-stdout-uses-stderr', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('printf "  \\n\\n"; echo warn >&2; exit 1')) } },
  { name: 'text/stderr-json', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh(`echo ${sq('{"decision":"deny","reason":"json on stderr"}')} >&2`)) } },
  { name: 'text/trimmed', event: 'BeforeAgent', input: BA, settings: { BeforeAgent: defs(sh('printf "\\n  padded text  \\n\\n"')) } },
  { name: 'json/double-encoded', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out(JSON.stringify(JSON.stringify({ decision: 'deny', reason: 'twice' })))) } },
  { name: 'json/string-of-text', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out('"just a string"', 2)) } },
  { name: 'json/exit-2-allow-honoured', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out({ decision: 'allow', systemMessage: 'ok' }, 2)) } },
  { name: 'json/exit-1-deny-honoured', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out({ decision: 'deny', reason: 'json wins' }, 1)) } },
  { name: 'json/array', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out([1, 2, 3])) } },
  { name: 'json/number', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out('42', 2)) } },
  { name: 'json/null', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(out('null')) } },
  { name: 'json/boolean', event: 'SessionStart', input: { source: 'startup' }, settings: { SessionStart: defs(out('true')) } },
  { name: 'json/text-before-json', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh(`echo checking...; echo ${sq('{"decision":"deny"}')}`)) } },
  { name: 'json/pretty-printed', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh(`printf '{\\n  "decision": "deny",\\n  "reason": "multi\\\\nline"\\n}\\n'`)) } },
  { name: 'json/empty-object', event: 'AfterTool', input: AT, settings: { AfterTool: defs(out({})) } },
  { name: 'json/no-output-exit-2', event: 'BeforeTool', input: BT, settings: { BeforeTool: defs(sh('exit 2')) } },

  // ---- Matchers ----
  { name: 'matcher/regex-unanchored-case-sensitive', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: [
      { matcher: 'run_shell', hooks: [out({ systemMessage: 'unanchored' })] },
      { matcher: '^run_shell$', hooks: [out({ systemMessage: 'anchored' })] },
      { matcher: 'Run_Shell', hooks: [out({ systemMessage: 'case' })] },
      { matcher: 'shell_command$', hooks: [out({ systemMessage: 'suffix' })] }] } },
  { name: 'matcher/regex-alternation', event: 'BeforeTool', input: { tool_name: 'write_file', tool_input: { file_path: 'a', content: 'b' } },
    settings: { BeforeTool: [
      { matcher: 'write_.*', hooks: [out({ systemMessage: 'write' })] },
      { matcher: 'read_.*', hooks: [out({ systemMessage: 'read' })] },
      { matcher: 'replace|write_file', hooks: [out({ systemMessage: 'alt' })] }] } },
  { name: 'matcher/star-empty-none-trimmed', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: [
      { matcher: '*', hooks: [out({ systemMessage: 'star' })] },
      { matcher: '', hooks: [out({ systemMessage: 'empty' })] },
      { matcher: '  run_shell_command  ', hooks: [out({ systemMessage: 'trimmed' })] },
      { hooks: [out({ systemMessage: 'none' })] },
      { matcher: ' * ', hooks: [out({ systemMessage: 'spaced star' })] }] } },
  { name: 'matcher/invalid-regex-exact-match', event: 'BeforeTool', input: { tool_name: 'odd[tool', tool_input: {} },
    settings: { BeforeTool: [
      { matcher: 'odd[tool', hooks: [out({ systemMessage: 'exact' })] },
      { matcher: 'odd[', hooks: [out({ systemMessage: 'prefix' })] }] } },
  { name: 'matcher/invalid-regex-no-match', event: 'AfterTool', input: { ...AT, tool_name: 'read_file' },
    settings: { AfterTool: [{ matcher: 'read_file(', hooks: [out({ systemMessage: 'never' })] }] } },
  { name: 'matcher/mcp-tool-name', event: 'AfterTool', input: { ...AT, tool_name: 'mcp__github__list_issues' },
    settings: { AfterTool: [
      { matcher: 'mcp__github__.*', hooks: [out({ systemMessage: 'github' })] },
      { matcher: '^mcp__slack', hooks: [out({ systemMessage: 'slack' })] }] } },
  { name: 'matcher/session-start-exact', event: 'SessionStart', input: { source: 'startup' },
    settings: { SessionStart: [
      { matcher: 'startup', hooks: [out({ systemMessage: 'exact' })] },
      { matcher: 'start.*', hooks: [out({ systemMessage: 'regex' })] },
      { matcher: 'startup|resume', hooks: [out({ systemMessage: 'alternation' })] },
      { matcher: 'resume', hooks: [out({ systemMessage: 'other' })] }] } },
  { name: 'matcher/session-end-reason', event: 'SessionEnd', input: { reason: 'clear' },
    settings: { SessionEnd: [
      { matcher: 'exit', hooks: [out({ systemMessage: 'exit' })] },
      { matcher: ' clear ', hooks: [out({ systemMessage: 'clear' })] }] } },
  { name: 'matcher/pre-compress-trigger', event: 'PreCompress', input: { trigger: 'manual' },
    settings: { PreCompress: [
      { matcher: 'auto', hooks: [out({ systemMessage: 'auto' })] },
      { matcher: 'manual', hooks: [out({ systemMessage: 'manual' })] },
      { matcher: '*', hooks: [out({ systemMessage: 'any' })] }] } },
  { name: 'matcher/ignored-for-before-agent', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: [{ matcher: 'does-not-match', hooks: [out({ systemMessage: 'ran anyway' })] }] } },
  { name: 'matcher/ignored-for-model-and-notification', event: 'Notification', input: NOTE,
    settings: { Notification: [{ matcher: 'Nope', hooks: [out({ systemMessage: 'ran anyway' })] }] } },

  // ---- Dedupe by name:command ----
  { name: 'dedupe/same-command-twice', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: [
      { matcher: 'run_shell', hooks: [out({ systemMessage: 'once' })] },
      { matcher: '*', hooks: [out({ systemMessage: 'once' })] }] } },
  { name: 'dedupe/named-vs-unnamed', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ systemMessage: 'x' }), out({ systemMessage: 'x' }, undefined, { name: 'named' })) } },
  { name: 'dedupe/same-name-different-command', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ systemMessage: 'a' }, undefined, { name: 'guard' }), out({ systemMessage: 'b' }, undefined, { name: 'guard' })) } },
  { name: 'dedupe/same-name-same-command', event: 'SessionStart', input: { source: 'resume' },
    settings: { SessionStart: defs(out({ systemMessage: 'a' }, undefined, { name: 'g', timeout: 5000 }), out({ systemMessage: 'a' }, undefined, { name: 'g' })) } },

  // ---- Sequential chaining ----
  { name: 'seq/before-agent-prompt-chain', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: seqDefs(
      cap('a', { hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'ctx-1' } }),
      cap('b', { hookSpecificOutput: { additionalContext: 'ctx-2' } }),
      cap('c')) } },
  { name: 'seq/failed-hook-not-chained', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: seqDefs(
      cap('a', { hookSpecificOutput: { additionalContext: 'from a failing hook' } }, 1),
      cap('b', { decision: 'deny', reason: 'stop', hookSpecificOutput: { additionalContext: 'after deny' } }),
      cap('c')) } },
  { name: 'seq/before-model-request-merge', event: 'BeforeModel', input: { llm_request: REQ },
    settings: { BeforeModel: seqDefs(
      cap('a', { hookSpecificOutput: { llm_request: { model: 'gemini-2.5-pro', config: { temperature: 0 } } } }),
      cap('b', { hookSpecificOutput: { llm_request: { messages: [{ role: 'user', content: 'rewritten' }] } } }),
      cap('c')) } },
  { name: 'seq/before-tool-input-chain', event: 'BeforeTool', input: BT,
    fix: 'Sequential tool_input: the final arguments accumulate every rewrite of the chain (the reference keeps only the last hook object).',
    hooklineExpected: { output: { continue: true, suppressOutput: false, decision: 'allow',
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls', timeout: 5 } } } },
    settings: { BeforeTool: seqDefs(
      cap('a', { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls' } } }),
      cap('b', { hookSpecificOutput: { tool_input: { timeout: 5 } } }),
      cap('c')) } },
  { name: 'seq/after-tool-no-chain', event: 'AfterTool', input: AT,
    settings: { AfterTool: seqDefs(
      cap('a', { hookSpecificOutput: { tool_input: { absolute_path: '/other' }, additionalContext: 'x' } }),
      cap('b')) } },
  { name: 'seq/one-sequential-definition-makes-all-sequential', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: [
      { hooks: [cap('a', { hookSpecificOutput: { additionalContext: 'first' } })] },
      { sequential: true, hooks: [cap('b')] },
      { sequential: false, hooks: [cap('c')] }] } },
  { name: 'seq/carries-on-after-failure', event: 'SessionStart', input: { source: 'clear' },
    settings: { SessionStart: seqDefs(sh('exit 3'), sh('echo oops >&2; exit 2'), out({ systemMessage: 'still ran' })) } },

  // ---- Parallel ----
  { name: 'parallel/plan-order-not-completion-order', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(
      sh(`"$CONF_HOOKS/conf-slow.sh" 0.6 ${sq('{"decision":"deny","reason":"slow","systemMessage":"slow first"}')}`),
      out({ decision: 'block', reason: 'fast', systemMessage: 'fast second' })) } },
  { name: 'parallel/same-input-for-all', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: defs(
      cap('a', { hookSpecificOutput: { additionalContext: 'not chained' } }),
      sh(`sleep 0.2; "$CONF_HOOKS/conf-capture.sh" b`)) } },

  // ---- Exit codes and failures ----
  { name: 'exit/non-zero-is-not-an-aggregate-error', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(sh('exit 3'), out({ decision: 'allow' }, 1), sh('echo nope; exit 127')) } },
  { name: 'exit/timeout', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(sh(`sleep 1; echo ${sq('{"decision":"deny"}')}`, { timeout: 300 }), out({ systemMessage: 'on time' })) } },
  { name: 'exit/command-not-found', event: 'PreCompress', input: { trigger: 'auto' },
    settings: { PreCompress: defs(sh('conf-no-such-command-xyz')) } },

  { name: 'exit/killed-by-signal', event: 'BeforeTool', input: BT,
    fix: 'A hook killed by a signal reports exitCode null and the error "Hook killed by signal SIGKILL"; its output is still read (the reference reports exit code 0 and no error).',
    hooklineExpected: {
      success: false,
      output: { continue: true, suppressOutput: false, systemMessage: 'before the signal', decision: 'allow' },
      runs: [{ success: false, exitCode: null, output: { systemMessage: 'before the signal' } }],
    },
    settings: { BeforeTool: defs(sh(`echo ${sq('{"systemMessage":"before the signal"}')}; kill -9 $$`)) } },
  { name: 'exit/background-child-holds-stdout', event: 'AfterAgent', input: AA,
    fix: 'Timeouts and pipes: the result is taken when the hook exits; a background child still holding stdout is killed, not waited for (the reference waits and appends its late output).',
    hooklineExpected: {
      output: { continue: true, suppressOutput: false, systemMessage: 'now', decision: 'allow' },
      runs: [{ success: true, exitCode: 0, output: { systemMessage: 'now' } }],
    },
    settings: { AfterAgent: defs(sh(`(sleep 0.5; echo late) & echo ${sq('{"systemMessage":"now"}')}`)) } },
  { name: 'text/invalid-utf8', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: defs(sh("printf 'caf\\xe9\\n'")) } },

  // ---- Disabled hooks ----
  { name: 'disabled/by-name', event: 'BeforeTool', input: BT, disabled: ['guard'],
    settings: { BeforeTool: defs(out({ decision: 'deny' }, undefined, { name: 'guard' }), out({ systemMessage: 'other' })) } },
  { name: 'disabled/by-command', event: 'BeforeAgent', input: BA, disabled: [`echo ${sq('{"decision":"deny"}')}`],
    settings: { BeforeAgent: defs(out({ decision: 'deny' }), out({ systemMessage: 'kept' })) } },
  { name: 'disabled/named-hook-not-disabled-by-its-command', event: 'BeforeAgent', input: BA, disabled: [`echo ${sq('{"decision":"deny"}')}`],
    settings: { BeforeAgent: defs(out({ decision: 'deny' }, undefined, { name: 'deny-all' })) } },

  // ---- Environment and command expansion ----
  { name: 'env/hook-env', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(sh('echo "{\\"systemMessage\\":\\"$CONF_GREETING\\"}"', { env: { CONF_GREETING: 'hello from env' } })) } },
  { name: 'env/hook-env-wins-over-gemini-vars', event: 'SessionEnd', input: { reason: 'logout' },
    settings: { SessionEnd: defs(sh('echo "$(printenv GEMINI_CWD) $(printenv GEMINI_SESSION_ID)"', { env: { GEMINI_CWD: 'cwd-from-hook', GEMINI_SESSION_ID: 'sid-from-hook' } })) } },
  { name: 'env/project-dir-and-cwd', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: defs(sh('[ "$(cd "$(printenv GEMINI_PROJECT_DIR)" && pwd -P)" = "$(pwd -P)" ] && [ "$(printenv GEMINI_CWD)" = "$(printenv CLAUDE_PROJECT_DIR)" ] && [ -n "$(printenv GEMINI_SESSION_ID)" ] && echo consistent')) } },
  { name: 'env/command-expansion', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgent: defs(sh('[ "$(cd $GEMINI_CWD && pwd -P)" = "$(pwd -P)" ] && [ "$(cd $CLAUDE_PROJECT_DIR && pwd -P)" = "$(pwd -P)" ] && [ "${GEMINI_CWD}" = "$(printenv GEMINI_CWD)" ] && echo expanded')) } },

  // ---- Configuration leniency ----
  { name: 'config/invalid-hook-dropped-valid-kept', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: [{ hooks: [{ type: 'command' }, out({ systemMessage: 'valid' })] }, { matcher: 'x' }] } },
  { name: 'config/unknown-event-skipped', event: 'BeforeAgent', input: BA,
    settings: { BeforeAgentt: defs(out({ decision: 'deny' })), BeforeAgent: defs(out({ systemMessage: 'known' })) } },

  { name: 'config/fractional-timeout', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(out({ systemMessage: 'ran' }, undefined, { timeout: 2500.5 })) } },
  { name: 'config/non-string-env-value', event: 'BeforeTool', input: BT,
    settings: { BeforeTool: defs(sh('echo "n=$CONF_N"', { env: { CONF_N: 5 } })) } },

  // ---- The input each hook receives ----
  { name: 'input/before-tool', event: 'BeforeTool',
    input: { tool_name: 'mcp__fs__read', tool_input: { path: '/a', opts: { n: 1 } },
      mcp_context: { server_name: 'fs', tool_name: 'read', command: 'npx', args: ['fs-server'], cwd: '/srv' }, original_request_name: 'read_file' },
    settings: { BeforeTool: defs(cap('in')) } },
  { name: 'input/after-tool', event: 'AfterTool',
    input: { tool_name: 'run_shell_command', tool_input: { command: 'false' },
      tool_response: { llmContent: 'exit 1', returnDisplay: 'exit 1', error: 'Command failed' } },
    settings: { AfterTool: defs(cap('in')) } },
  { name: 'input/before-agent', event: 'BeforeAgent', input: { prompt: 'multi\nline "quoted" <tag> prompt' },
    settings: { BeforeAgent: defs(cap('in')) } },
  { name: 'input/after-agent', event: 'AfterAgent', input: { ...AA, stop_hook_active: true },
    settings: { AfterAgent: defs(cap('in')) } },
  { name: 'input/session-start', event: 'SessionStart', input: { source: 'resume' },
    settings: { SessionStart: defs(cap('in')) } },
  { name: 'input/session-end', event: 'SessionEnd', input: { reason: 'prompt_input_exit' },
    settings: { SessionEnd: defs(cap('in')) } },
  { name: 'input/pre-compress', event: 'PreCompress', input: { trigger: 'manual' },
    settings: { PreCompress: defs(cap('in')) } },
  { name: 'input/notification', event: 'Notification', input: NOTE,
    settings: { Notification: defs(cap('in')) } },
  { name: 'input/before-model', event: 'BeforeModel',
    input: { llm_request: { ...REQ, messages: [{ role: 'system', content: 'Be brief.' }, ...REQ.messages], config: { temperature: 0.5, maxOutputTokens: 100, topP: 0.9, topK: 40 } } },
    settings: { BeforeModel: defs(cap('in')) } },
  { name: 'input/after-model', event: 'AfterModel',
    input: { llm_request: REQ, llm_response: { ...RESP, usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } } },
    settings: { AfterModel: defs(cap('in')) } },
  { name: 'input/before-tool-selection', event: 'BeforeToolSelection', input: { llm_request: REQ },
    settings: { BeforeToolSelection: defs(cap('in')) } },
];
