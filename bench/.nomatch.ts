import { HookEngine } from '../src/engine/index.js';
const env = { ...process.env, GEMINI_CLI_HOME: '/tmp/spd/e/home', GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/tmp/spd/e/none.json' };
const e = new HookEngine({ cwd: '/tmp/spd/e/project', env, sessionId: 's' });
const fields = { tool_name: 'read_file', tool_input: {} };
const noop = async () => undefined;
async function loop(fn: () => Promise<unknown>, n: number) { const t = performance.now(); for (let i = 0; i < n; i++) await fn(); return ((performance.now() - t) / n) * 1000; }
for (let r = 0; r < 3; r++) await loop(() => e.fire('BeforeTool', fields), 20000);
const a: number[] = [], b: number[] = [];
for (let r = 0; r < 15; r++) { a.push(await loop(noop, 20000)); b.push(await loop(() => e.fire('BeforeTool', fields), 20000)); }
const med = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1];
console.log('noop', med(a).toFixed(3), 'µs  fire no-match', med(b).toFixed(3), 'µs');
