/**
 * The variables Gemini CLI substitutes in an extension's hooks: `${extensionPath}` (the
 * extension's folder), `${workspacePath}` (the project folder), `${/}` and `${pathSeparator}`
 * (the path separator). Each is quoted for where it stands in the command, so a folder with
 * spaces or quotes stays one word.
 */
import path from 'node:path';
import { expandVariables } from './expand.js';

export interface ExtensionValues {
  extensionPath: string;
  workspacePath: string;
}

export function expandExtensionCommand(command: string, v: ExtensionValues): string {
  const values: Array<[string, string]> = [
    ['${extensionPath}', v.extensionPath],
    ['${workspacePath}', v.workspacePath],
    ['${/}', path.sep],
    ['${pathSeparator}', path.sep],
  ];
  return expandVariables(command, (text, i) => {
    for (const [name, value] of values) if (text.startsWith(name, i)) return { length: name.length, value };
    return undefined;
  });
}
