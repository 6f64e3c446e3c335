/**
 * Hook test fixtures (`*.hooktest.json`, `.yaml`, `.yml`): one event, its input, and what the
 * hooks must answer. One zod schema checks them; `schema/hooktest.json` is generated from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseJsonc } from '../../config/jsonc.js';
import { readLimitedText, textNestsDeeper, tooDeep, yamlNestsDeeper } from '../../config/limits.js';
import { jsonPath } from '../../config/problems.js';

export const HookTestExpect = z
  .object({
    decision: z.string().min(1).optional().describe('allow, deny, ask, block, stop… (allow, approve and continue count as the same)'),
    reason: z.string().optional().describe('a substring of the reason given'),
    output: z.record(z.string(), z.unknown()).optional().describe('fields the output must have (objects compared in part)'),
    context: z.string().optional().describe('a substring of the context added for the model'),
    exitCode: z.number().int().optional().describe("the hook's exit status (several hooks: the first non-zero one, else 0)"),
    hooks: z.number().int().min(0).optional().describe('how many hooks must run (default: at least one)'),
  })
  .strict();

export const HookTest = z
  .object({
    $schema: z.string().optional(),
    name: z.string().optional().describe('shown instead of the file name'),
    event: z.string().min(1).describe("the event, in the dialect's own names (BeforeTool, PreToolUse, preToolCall…)"),
    input: z.record(z.string(), z.unknown()).default({}).describe("the event's own fields, as for hookline fire --input"),
    dialect: z.enum(['gemini', 'claude', 'codex', 'copilot', 'mm', 'spatialagent', 'agy']).default('gemini'),
    config: z
      .string()
      .optional()
      .describe('a configuration file, relative to the fixture (gemini: read as system settings; others: instead of the usual place)'),
    hook: z.string().optional().describe("judge only this hook's own answer (its name or command)"),
    env: z.record(z.string(), z.string()).optional().describe('extra environment for the hooks'),
    expect: HookTestExpect,
  })
  .strict();

export type HookTest = z.infer<typeof HookTest>;
export type HookTestExpect = z.infer<typeof HookTestExpect>;

export const FIXTURE_SUFFIXES = ['.hooktest.json', '.hooktest.yaml', '.hooktest.yml'];
export const DEFAULT_TEST_DIR = path.join('.hookline', 'tests');

export const isFixtureFile = (f: string) => FIXTURE_SUFFIXES.some((s) => f.endsWith(s));

/** Reads and checks one fixture: the fixture, or a one-line problem. */
export function loadFixture(file: string): { ok: true; test: HookTest } | { ok: false; problem: string } {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    return { ok: false, problem: `cannot read it: ${(e as Error).message}` };
  }
  let value: unknown;
  if (file.endsWith('.json')) {
    if (textNestsDeeper(text, undefined, true)) return { ok: false, problem: tooDeep('its JSON') };
    const r = parseJsonc(text);
    if (!r.ok) return { ok: false, problem: r.message };
    value = r.value;
  } else {
    if (yamlNestsDeeper(text)) return { ok: false, problem: tooDeep('its YAML') };
    try {
      value = parseYaml(text, { maxAliasCount: 100 });
    } catch (e) {
      return { ok: false, problem: `not valid YAML: ${(e as Error).message.split('\n')[0]}` };
    }
  }
  const r = HookTest.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, problem: `${jsonPath(issue.path as Array<string | number>) || 'fixture'}: ${issue.message}` };
  }
  return { ok: true, test: r.data };
}

/** The fixture files named (files as they are, folders searched), sorted; missing paths are problems. */
export function findFixtures(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p);
      else if (e.isFile() && isFixtureFile(e.name)) files.push(p);
    }
  };
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) walk(p);
    else files.push(p);
  }
  return { files, missing };
}
