// Benchmark preload, as `node -r dotenv/config` is used: the .env of the working folder, if any, into process.env.
const fs = require('node:fs');
let text = '';
try {
  text = fs.readFileSync('.env', 'utf8');
} catch {
  // no .env here
}
for (const line of text.split('\n')) {
  const m = /^\s*([A-Za-z_]\w*)\s*=\s*(.*)\s*$/.exec(line);
  if (m && process.env[m[1]] === undefined) process.env[m[1]] = m[2];
}
