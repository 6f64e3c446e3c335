# Sourced (as BASH_ENV) by a hook's `bash -c` before its command: the shell enters its run's
# cgroup before it runs anything, so nothing it forks starts outside it, and then removes every
# trace of this (the variables, the function) and gives `$_` back its value.
__hookline_enter() {
  { echo $$ >"$__HOOKLINE_CGROUP_PROCS"; } 2>/dev/null
  unset -v BASH_ENV __HOOKLINE_CGROUP_PROCS
  unset -f __hookline_enter
}
__hookline_enter "$_"
