/**
 * The variables Gemini CLI substitutes in an extension's hooks: `${extensionPath}` (the
 * extension's folder), `${workspacePath}` (the project folder), `${/}` and `${pathSeparator}`
 * (the path separator), and each setting the extension declares (`${NAME}`). Each is quoted for
 * where it stands in the command, so a folder with spaces or quotes stays one word.
 */
import path from 'node:path';
import { expandVariables } from './expand.js';

export interface ExtensionValues {
  extensionPath: string;
  workspacePath: string;
  /** The extension's settings (`${NAME}` for each declared variable). */
  settings?: Readonly<Record<string, string>>;
}

export function expandExtensionCommand(command: string, v: ExtensionValues): string {
  const values: Array<[string, string]> = [
    ['${extensionPath}', v.extensionPath],
    ['${workspacePath}', v.workspacePath],
    ['${/}', path.sep],
    ['${pathSeparator}', path.sep],
    ...Object.entries(v.settings ?? {}).map(([name, value]): [string, string] => [`\${${name}}`, value]),
  ];
  return expandVariables(command, (text, i) => {
    for (const [name, value] of values) if (text.startsWith(name, i)) return { length: name.length, value };
    return undefined;
  });
}
