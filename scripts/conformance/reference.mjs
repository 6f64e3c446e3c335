// Regenerate test/conformance/golden.json from the reference engine:
//   npm install --prefix bench/.work @google/gemini-cli-core@0.61.0 --ignore-scripts
//   node scripts/conformance/reference.mjs
// Every case of cases.mjs is fired through the reference HookSystem (fresh fake config per case,
// the case's hooks labelled as project hooks, folder trusted, redaction off, cwd a temp folder).
// Each entry is sealed (seal.mjs): the reference's version, a hash of its case, a digest of itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cases, readCaptures } from './cases.mjs';
import { REFERENCE, REFERENCE_VERSION as VERSION, caseHash, entryDigest } from './seal.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CANDIDATES = [
  path.join(ROOT, 'bench', '.work', 'node_modules', '@google', 'gemini-cli-core'),
  '/tmp/ref/node_modules/@google/gemini-cli-core',
];

const core = CANDIDATES.find((d) => fs.existsSync(path.join(d, 'dist', 'src', 'hooks', 'hookSystem.js')));
if (!core) {
  process.stderr.write(
    `reference engine not found (looked in ${CANDIDATES.join(', ')}).\n` +
      `Install it with: npm install --prefix bench/.work @google/gemini-cli-core@${VERSION} --ignore-scripts\n`,
  );
  process.exit(2);
}
const version = JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8')).version;
if (version !== VERSION) {
  process.stderr.write(`reference engine at ${core} is ${version}; the golden file is for ${VERSION}\n`);
  process.exit(2);
}

// The reference logs through console.*; keep this script's output to our own lines.
delete process.env.GEMINI_DEBUG_LOG_FILE;
for (const k of ['log', 'warn', 'error', 'debug', 'info']) console[k] = () => {};
process.env.CONF_HOOKS = path.join(ROOT, 'test', 'fixtures', 'hooks');

const hooksDir = pathToFileURL(path.join(core, 'dist', 'src', 'hooks')).href;
const { HookSystem } = await import(`${hooksDir}/hookSystem.js`);
const { HookRunner } = await import(`${hooksDir}/hookRunner.js`);

// The aggregate does not carry the per-hook results; record them as the runner returns them.
let lastResults = [];
for (const m of ['executeHooksParallel', 'executeHooksSequential']) {
  const orig = HookRunner.prototype[m];
  HookRunner.prototype[m] = async function (...args) {
    lastResults = await orig.apply(this, args);
    return lastResults;
  };
}

/** Stable request (what hooks see) to the GenAI SDK shape the reference translates from. */
function sdkRequest(req) {
  return {
    model: req.model,
    contents: (req.messages ?? []).map((m) => ({ role: m.role, parts: [{ text: m.content }] })),
    config: { ...req.config },
  };
}

function sdkResponse(res) {
  return {
    candidates: res.candidates.map((c) => ({
      content: { role: 'model', parts: c.content.parts.map((text) => ({ text })) },
      finishReason: c.finishReason,
      index: c.index,
    })),
    ...(res.usageMetadata ? { usageMetadata: res.usageMetadata } : {}),
  };
}

function fire(handler, event, i) {
  switch (event) {
    case 'BeforeTool':
      return handler.fireBeforeToolEvent(i.tool_name, i.tool_input, i.mcp_context, i.original_request_name);
    case 'AfterTool':
      return handler.fireAfterToolEvent(i.tool_name, i.tool_input, i.tool_response, i.mcp_context, i.original_request_name);
    case 'BeforeAgent':
      return handler.fireBeforeAgentEvent(i.prompt);
    case 'AfterAgent':
      return handler.fireAfterAgentEvent(i.prompt, i.prompt_response, i.stop_hook_active);
    case 'SessionStart':
      return handler.fireSessionStartEvent(i.source);
    case 'SessionEnd':
      return handler.fireSessionEndEvent(i.reason);
    case 'PreCompress':
      return handler.firePreCompressEvent(i.trigger);
    case 'Notification':
      return handler.fireNotificationEvent(i.notification_type, i.message, i.details);
    case 'BeforeModel':
      return handler.fireBeforeModelEvent(sdkRequest(i.llm_request));
    case 'AfterModel':
      return handler.fireAfterModelEvent(sdkRequest(i.llm_request), sdkResponse(i.llm_response));
    case 'BeforeToolSelection':
      return handler.fireBeforeToolSelectionEvent(sdkRequest(i.llm_request));
    default:
      throw new Error(`unknown event ${event}`);
  }
}

/** JSON.stringify semantics: undefined fields dropped, class instances as plain objects. */
const plain = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

async function runCase(c) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-conf-ref-')));
  try {
    const settings = structuredClone(c.settings);
    const config = {
      getSessionId: () => 'conformance-session',
      getWorkingDir: () => dir,
      getProjectRoot: () => dir,
      isTrustedFolder: () => true,
      getHooks: () => settings,
      getProjectHooks: () => undefined,
      getDisabledHooks: () => c.disabled ?? [],
      getExtensions: () => [],
      getUsageStatisticsEnabled: () => false,
      sanitizationConfig: { allowedEnvironmentVariables: [], blockedEnvironmentVariables: [], enableEnvironmentVariableRedaction: false },
      storage: { getPlansDir: () => path.join(dir, '.plans') },
      geminiClient: undefined,
    };
    config.config = config;
    const hs = new HookSystem(config);
    await hs.initialize();
    lastResults = [];
    const agg = await fire(hs.getEventHandler(), c.event, structuredClone(c.input));
    const entry = {
      name: c.name,
      reference: REFERENCE,
      caseHash: caseHash(c),
      success: agg.success,
      output: plain(agg.finalOutput),
      runs: lastResults.map((r) => ({ success: r.success, exitCode: r.exitCode ?? null, output: plain(r.output) })),
    };
    const stdin = readCaptures(dir);
    if (stdin) entry.stdin = stdin;
    entry.digest = entryDigest(entry);
    return entry;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const golden = { reference: REFERENCE, cases: [] };
for (const c of cases) {
  process.stderr.write(`${c.name}\n`);
  golden.cases.push(await runCase(c));
}
const file = path.join(ROOT, 'test', 'conformance', 'golden.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify(golden, null, 2) + '\n');
process.stderr.write(`wrote ${golden.cases.length} cases to ${path.relative(ROOT, file)}\n`);
process.exit(0);
