// Reads the hook event from stdin (shared by the demo's hooks).
export async function readEvent() {
  let raw = '';
  for await (const chunk of process.stdin) raw += chunk;
  return JSON.parse(raw);
}
