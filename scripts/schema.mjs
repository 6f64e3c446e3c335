// Writes the published JSON Schemas from the zod schemas in dist/.
import fs from 'node:fs';
import { z } from 'zod';
import { Settings } from '../dist/config/schema.js';
import { EVENT_FIELDS, BaseInput } from '../dist/events/input.js';
import { outputSchema } from '../dist/events/output.js';
import { EVENT_NAMES } from '../dist/events/names.js';

fs.mkdirSync('schema', { recursive: true });
const write = (name, schema) => fs.writeFileSync(`schema/${name}.json`, JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }), null, 2) + '\n');
write('settings', Settings);
for (const ev of EVENT_NAMES) {
  write(`${ev}.input`, BaseInput.extend(EVENT_FIELDS[ev].shape));
  write(`${ev}.output`, outputSchema(ev));
}
