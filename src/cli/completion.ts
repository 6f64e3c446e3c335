/** `hookline completion bash|zsh|fish`: a completion script made from the command tree, so it never falls behind. */
import type { Command } from 'commander';
import { UsageError } from './io.js';

interface Word {
  name: string;
  description: string;
  options: string[];
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;

function words(program: Command): Word[] {
  return program.commands.map((c) => ({
    name: c.name(),
    description: c.description().replace(/\s+/g, ' '),
    options: c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))).concat('--help'),
  }));
}

const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(ws: Word[]): string {
  const cases = ws.map((w) => `    ${w.name}) opts=${single(w.options.join(' '))} ;;`).join('\n');
  return `# hookline bash completion: eval "$(hookline completion bash)"
_hookline() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${single(ws.map((w) => w.name).join(' ') + ' --help --version')} -- "$cur"))
    return
  fi
  case "$cmd" in
${cases}
    *) opts='--help' ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _hookline hookline
`;
}

function zsh(ws: Word[]): string {
  const cmds = ws.map((w) => `    ${single(`${w.name}:${w.description.replace(/:/g, '\\:')}`)}`).join('\n');
  const cases = ws
    .map((w) => `    ${w.name}) _arguments ${w.options.map((o) => single(`${o}[]`)).join(' ')} '*:file:_files' ;;`)
    .join('\n');
  return `#compdef hookline
# hookline zsh completion: eval "$(hookline completion zsh)", or save it as _hookline on $fpath
_hookline() {
  local -a commands
  commands=(
${cmds}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "$words[2]" in
${cases}
  esac
}
compdef _hookline hookline
`;
}

function fish(ws: Word[]): string {
  const lines = ws.flatMap((w) => [
    `complete -c hookline -n __fish_use_subcommand -a ${w.name} -d ${single(w.description)}`,
    ...w.options
      .filter((o) => o.startsWith('--'))
      .map((o) => `complete -c hookline -n '__fish_seen_subcommand_from ${w.name}' -l ${o.slice(2)}`),
  ]);
  return `# hookline fish completion: hookline completion fish > ~/.config/fish/completions/hookline.fish\ncomplete -c hookline -f\n${lines.join('\n')}\n`;
}

export function completion(program: Command, shell: string): string {
  const ws = words(program);
  if (shell === 'bash') return bash(ws);
  if (shell === 'zsh') return zsh(ws);
  if (shell === 'fish') return fish(ws);
  throw new UsageError(`completion: unknown shell "${shell}" — give one of ${SHELLS.join(', ')}`);
}
