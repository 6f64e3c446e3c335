// After tsc. It keeps the shebang of src/cli/main.ts but writes files without the run bit: set it, so the
// built `hookline` runs as a command (npm link, a global install, a path).
import fs from 'node:fs';

fs.chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);

// The files beside the compiled modules that tsc does not copy: what a cold bash run sources to
// enter its cgroup (src/run/process.ts).
fs.copyFileSync(new URL('../src/run/enter-cgroup.bash', import.meta.url), new URL('../dist/run/enter-cgroup.bash', import.meta.url));
