// Writes the published JSON Schemas from the zod schemas in dist/. The same function backs the
// test that fails when the committed files are not what the zod schemas generate.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CommandHookConfig, HookDefinition, Settings } from '../dist/config/schema.js';
import { EVENT_FIELDS, BaseInput } from '../dist/events/input.js';
import { outputSchema } from '../dist/events/output.js';
import { EVENT_NAMES } from '../dist/events/names.js';
import { HookTest } from '../dist/cli/hooktest/fixture.js';

/** Every published schema: file name → text. Settings in "input" mode: what a file may hold. */
export function generateSchemas() {
  // Named once in $defs instead of inlined under each of the 11 events.
  const names = z.registry();
  names.add(HookDefinition, { id: 'HookDefinition' });
  names.add(CommandHookConfig, { id: 'CommandHook' });
  const text = (schema, io = 'output') =>
    JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any', metadata: names }), null, 2) + '\n';
  const out = { 'settings.json': text(Settings, 'input') };
  for (const ev of EVENT_NAMES) {
    out[`${ev}.input.json`] = text(BaseInput.extend(EVENT_FIELDS[ev].shape));
    out[`${ev}.output.json`] = text(outputSchema(ev));
  }
  // With its field descriptions (kept in zod's global registry), for editors.
  out['hooktest.json'] = JSON.stringify(z.toJSONSchema(HookTest, { io: 'input', unrepresentable: 'any' }), null, 2) + '\n';
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.mkdirSync('schema', { recursive: true });
  for (const [name, text] of Object.entries(generateSchemas())) {
    const file = `schema/${name}`;
    // Unchanged files are not rewritten, so a build leaves the tree (and mtimes) alone.
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  }
}
