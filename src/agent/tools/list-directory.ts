import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errCode, ErrorType, errMsg, fail, oneLine } from './common.js';
import { ignoreRulesFor } from './walk.js';
import { isFailure, isBlockedName, isInside, realResolve, relPath, resolveInWorkspace } from './paths.js';
import { compileGlob, type Matcher } from './pattern.js';
import { defineTool } from './types.js';

const MAX_ENTRIES = 5000;

const parameters = z.object({
  dir_path: z.string().describe('The directory to list.'),
  ignore: z.array(z.string()).optional().describe('Optional: glob patterns; entries whose name matches one are left out.'),
  file_filtering_options: z
    .object({
      respect_git_ignore: z
        .boolean()
        .optional()
        .describe('Optional: leave out entries matched by .gitignore (git repositories only). Defaults to true.'),
      respect_gemini_ignore: z.boolean().optional().describe('Optional: leave out entries matched by .geminiignore. Defaults to true.'),
    })
    .optional()
    .describe('Optional: which ignore files to honour.'),
});

interface Entry {
  name: string;
  isDir: boolean;
  size: number;
}

export const listDirectory = defineTool({
  name: 'list_directory',
  description:
    'Lists the names of files and subdirectories directly within a directory of the workspace (directories first, files with their size). Entries matching the optional `ignore` glob patterns are left out.',
  parameters,
  kind: 'read',
  title: (a) => oneLine(`ReadFolder ${a.dir_path}`),
  async run(a, ctx) {
    const r = resolveInWorkspace(ctx.cwd, a.dir_path);
    if (isFailure(r)) return r;
    const dir = r.path;
    const bad = (type: string, llm: string, display: string) => fail(type, llm, `Error: ${display}`, llm);
    let names: string[];
    try {
      const st = await fs.stat(dir);
      if (!st.isDirectory()) return bad(ErrorType.pathIsNotDirectory, `Error: Path is not a directory: ${dir}`, 'Path is not a directory.');
      names = await fs.readdir(dir);
    } catch (err) {
      if (errCode(err) === 'ENOENT')
        return bad(ErrorType.fileNotFound, `Error: Directory not found or inaccessible: ${dir}`, 'Directory not found or inaccessible.');
      return bad(ErrorType.lsError, `Error listing directory: ${errMsg(err)}`, 'Failed to list directory.');
    }
    if (names.length === 0) return { llmContent: `Directory ${dir} is empty.`, returnDisplay: 'Directory is empty.' };

    let ignoreMatchers: Matcher[];
    try {
      ignoreMatchers = (a.ignore ?? []).map((p) => compileGlob(p));
    } catch (err) {
      return fail(ErrorType.invalidParams, `Invalid ignore pattern: ${errMsg(err)}`);
    }
    const opts = a.file_filtering_options;
    const rules = ignoreRulesFor(r.root, dir, opts?.respect_git_ignore ?? true, opts?.respect_gemini_ignore ?? true);
    const entries: Entry[] = [];
    let ignored = 0;
    for (const name of names.slice(0, MAX_ENTRIES)) {
      const full = path.join(dir, name);
      // entries Gemini CLI would refuse to open are not shown either
      if (isBlockedName(name)) continue;
      let st: Stats;
      try {
        const target = realResolve(full);
        if (!isInside(r.root, target) || relPath(r.root, target).split('/').some(isBlockedName)) continue;
        st = await fs.stat(full);
      } catch {
        continue;
      }
      const isDir = st.isDirectory();
      if (rules.ignored(relPath(r.root, full), isDir)) {
        ignored++;
        continue;
      }
      if (ignoreMatchers.some((m) => m(name))) continue;
      entries.push({ name, isDir, size: isDir ? 0 : st.size });
    }
    entries.sort((x, y) => (x.isDir !== y.isDir ? (x.isDir ? -1 : 1) : x.name.localeCompare(y.name)));
    let llm = `Directory listing for ${dir}:\n${entries.map((e) => (e.isDir ? `[DIR] ${e.name}` : `${e.name} (${e.size} bytes)`)).join('\n')}`;
    if (names.length > MAX_ENTRIES) llm += `\n\n(listing stopped after ${MAX_ENTRIES} of ${names.length} entries)`;
    if (ignored > 0) llm += `\n\n(${ignored} ignored)`;
    return { llmContent: llm, returnDisplay: `Found ${entries.length} item(s).${ignored > 0 ? ` (${ignored} ignored)` : ''}` };
  },
});
