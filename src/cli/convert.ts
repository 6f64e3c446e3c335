/** `hookline convert --from D --to D FILE [-o OUT]`: prints or writes the converted configuration; notes on stderr. */
import { readLimitedText } from '../config/limits.js';
import { writeFileAtomic } from '../config/write.js';
import { ConvertError, convertConfig } from '../dialects/convert/index.js';
import { UsageError, warn } from './io.js';

export function convert(file: string, opts: { from: string; to: string; output?: string }): void {
  let text: string;
  try {
    text = readLimitedText(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  let result: { text: string; notes: string[] };
  try {
    result = convertConfig(text, opts.from, opts.to);
  } catch (e) {
    if (e instanceof ConvertError) throw new UsageError(e.message.startsWith('--') ? e.message : `${file}: ${e.message}`);
    throw e;
  }
  for (const n of result.notes) warn(`${file}: ${n}`);
  if (opts.output === undefined || opts.output === '-') {
    process.stdout.write(result.text);
    return;
  }
  try {
    writeFileAtomic(opts.output, result.text);
  } catch (e) {
    throw new UsageError(`${opts.output}: ${(e as Error).message}`);
  }
}
