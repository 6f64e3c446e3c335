/**
 * `hookline init`: a guard hook for one event of one hook system, its entry in the project's
 * configuration (appended, nothing else changed) and fixtures that pass, so `hookline test` is
 * green from the start.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { appendToList } from '../config/append.js';
import { closestName } from '../config/suggest.js';
import { updateFile } from '../config/write.js';
import { PROFILES, scaffoldProfile, type ScaffoldProfile } from '../dialects/scaffold/profiles.js';
import { denyReason, EXTENSIONS, hookScript, interpreterOf, LANGS, type Lang } from '../dialects/scaffold/scripts.js';
import { DEFAULT_TEST_DIR } from './hooktest/fixture.js';
import { print, resolveDir, UsageError, warn } from './io.js';

export interface InitOptions {
  cwd?: string;
  lang?: string;
  event?: string;
  dialect?: string;
  name?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function pick(opts: InitOptions): { p: ScaffoldProfile; lang: Lang; event: string; name: string } {
  const p = scaffoldProfile(opts.dialect ?? 'gemini');
  if (!p)
    throw new UsageError(`--dialect: unknown dialect "${opts.dialect}"; expected one of ${PROFILES.map((x) => x.dialect).join(', ')}`);
  const lang = (opts.lang ?? 'bash') as Lang;
  if (!LANGS.includes(lang)) throw new UsageError(`--lang: unknown language "${opts.lang}"; expected one of ${LANGS.join(', ')}`);
  const event = opts.event ?? p.toolEvent;
  if (!p.events.includes(event)) {
    const hint = closestName(event, p.events);
    throw new UsageError(
      `--event: ${p.dialect} has no event "${event}"${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${p.events.join(', ')}`,
    );
  }
  const name = opts.name ?? 'guard';
  if (!NAME.test(name)) throw new UsageError(`--name: "${name}" must be letters, digits, - and _ (it names the script file)`);
  return { p, lang, event, name };
}

/** Files `init` writes; none may exist yet. */
function plan(dir: string, name: string, lang: Lang, withDeny: boolean) {
  const script = path.join('.hookline', 'hooks', `${name}.${EXTENSIONS[lang]}`);
  const tests = [`${name}-allow`, ...(withDeny ? [`${name}-deny`] : [])].map((t) => path.join(DEFAULT_TEST_DIR, `${t}.hooktest.json`));
  for (const f of [script, ...tests])
    if (fs.existsSync(path.join(dir, f))) throw new UsageError(`${f} already exists; not changed — choose another --name`);
  return { script, tests };
}

function writeNew(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { flag: 'wx', mode });
}

/** Writes the hook, its entry and its fixtures; returns what to print on stdout, and warnings. */
export function initHook(opts: InitOptions): { lines: string[]; warnings: string[] } {
  const dir = resolveDir(opts.cwd);
  const { p, lang, event, name } = pick(opts);
  const isTool = p.toolEvents.includes(event);
  const withDeny = event === p.toolEvent;
  const files = plan(dir, name, lang, withDeny);
  const rel = files.script.split(path.sep).join('/');
  // Through its interpreter: no executable bit needed, and `hookline doctor` can check it starts.
  const command = p.projectVar ? `${interpreterOf(lang)} "$${p.projectVar}/${rel}"` : `${interpreterOf(lang)} ${rel}`;
  const config = path.join(dir, p.file);
  try {
    updateFile(config, (text) => {
      const start = !text.trim() && p.newFile ? `${JSON.stringify(p.newFile, null, 2)}\n` : text;
      return appendToList(start, p.format, ['hooks', event], p.entry(event, command, name));
    });
  } catch (e) {
    throw new UsageError(`${p.file}: ${(e as Error).message}`);
  }
  writeNew(path.join(dir, files.script), hookScript(lang, p, name, event), 0o755);
  const fixture = (what: string, input: Record<string, unknown>, expect: Record<string, unknown>) =>
    JSON.stringify({ name: `${name}: ${what}`, dialect: p.dialect, event, input, hook: command, expect }, null, 2) + '\n';
  writeNew(
    path.join(dir, files.tests[0]),
    fixture(isTool ? 'lets ls through' : `lets ${event} through`, isTool ? p.toolInput('ls -la', event) : {}, {
      decision: 'allow',
      exitCode: 0,
    }),
  );
  if (withDeny)
    writeNew(
      path.join(dir, files.tests[1]),
      fixture('denies rm -rf', p.toolInput('rm -rf build', event), { decision: p.denied, reason: denyReason(name) }),
    );
  const lines = [
    `${p.file}: added ${event} hook ${name}: ${command}`,
    `created ${rel}`,
    ...files.tests.map((t) => `created ${t.split(path.sep).join('/')}`),
    'next: hookline test   (then hookline trust, so the agent runs the new workspace hook)',
  ];
  const warnings: string[] = [];
  if (lang === 'node' && 'stdin' in p.reads) {
    try {
      createRequire(path.join(dir, 'package.json')).resolve('hookline/sdk');
    } catch {
      warnings.push(`${rel}: imports hookline/sdk, which this project cannot find — install it: npm install --save-dev hookline`);
    }
  }
  return { lines, warnings };
}

/** `hookline init`. */
export function init(opts: InitOptions): void {
  const { lines, warnings } = initHook(opts);
  for (const l of lines) print(l);
  for (const w of warnings) warn(w);
}
