// tsc keeps the shebang of src/cli/main.ts but writes files without the run bit: set it, so the
// built `hookline` runs as a command (npm link, a global install, a path).
import fs from 'node:fs';

fs.chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);
