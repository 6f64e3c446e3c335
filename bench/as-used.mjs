// One case of "as users call it": a fresh process, the built package imported as the README
// shows, `new HookEngine({ cwd, sessionId })` over the user's settings (HOME is the bench's), and
// each `await engine.fire(…)` timed on its own, alternated (in turns) with the same event through Gemini
// CLI's engine, with `gap` ms of other work between events. Prints {base, subject} as JSON.
import { setTimeout as sleep } from 'node:timers/promises';
import { HookEngine } from '../dist/index.js';
import { referenceSystem } from './reference.mjs';

const { hooks, count, gap, event, fields, warmup } = JSON.parse(process.env.HOOKLINE_BENCH_CASE);
// A large payload travels as its size ({ repeat: N }: an environment variable holds the case) and is made here.
const content = fields.tool_response?.llmContent;
if (content?.repeat) fields.tool_response.llmContent = 'x'.repeat(content.repeat);
const cwd = process.cwd();
const engine = new HookEngine({ cwd, sessionId: 'bench-session' });
const ref = await referenceSystem(hooks, cwd);
const theirs =
  event === 'AfterTool'
    ? () => ref.afterTool(fields.tool_name, fields.tool_input, fields.tool_response)
    : () => ref.beforeTool(fields.tool_name, fields.tool_input);
const ours = () => engine.fire(event, fields);

/** Other work between events: a wait, or (gap 0) none beyond the other side's call. */
const work = () => (gap > 0 ? sleep(gap) : undefined);
const base = [];
const subject = [];
const timed = async (fn) => {
  await work();
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
for (let i = 0; i < warmup + count; i++) {
  // Each side goes first in every other pair: what one leaves running (waiting shells started
  // again after an event) lands on the other as often as on itself.
  let a;
  let b;
  if (i % 2) {
    b = await timed(ours);
    a = await timed(theirs);
  } else {
    a = await timed(theirs);
    b = await timed(ours);
  }
  if (i >= warmup) {
    base.push(a);
    subject.push(b);
  }
}
engine.close();
process.stdout.write(JSON.stringify({ base, subject }));
process.exit(0);
