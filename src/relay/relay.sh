#!/usr/bin/env bash
# relay.sh NODE AGENT --event NAME --http-port PORT [--hooks-from LIST] [--guard]
#
# What Hookline's command entries run (`hookline install`) where the kernel can say who is at the
# other end of a loopback connection (Linux): a shell starts in a few milliseconds, where Node
# takes tens. It hands the event to the user's warm server on 127.0.0.1:PORT, which answers only
# this user's processes and reads the event's environment and folder from this process itself;
# this side sends nothing until the kernel's table shows that the end that accepted the
# connection is this user's. Anything short of that (no server listening, another user's
# program on the port, no /proc, an older server) goes to relay.cjs, the Node client, which
# starts the server. The input is only ever data here: nothing of it is run.
node=$1
shift
host=$1
dir=${BASH_SOURCE[0]%/*}
# Inside the relay's own hooks an entry answers nothing at once: no loop.
[[ -n ${HOOKLINE_RELAYING:-} ]] && exit 0
export LC_ALL=C
# The reasons go to the agent's stderr even from where this shell's own is sent to /dev/null.
exec 9>&2 || exec 9>/dev/null
# cat, not $(</dev/stdin): an agent's stdin may be a socket, which cannot be opened by path.
{ input=$(cat); } 2>/dev/null
# A peer that closes early makes a write fail (and is then not trusted), rather than end this shell.
trap '' PIPE

port= from= event= guard=
args=("$@")
for ((i = 1; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --http-port) port=${args[i + 1]} ;;
    --hooks-from) from=${args[i + 1]} ;;
    --event) event=${args[i + 1]} ;;
    --guard) guard=1 ;;
  esac
done

# Past the point the event is sent it may have run: a missing answer is never asked again, it is refused.
fail() {
  printf 'hookline: Hookline could not decide (%s)%s\n' "$1" "${guard:+; refused to be safe}" >&9
  [[ -n $guard ]] && exit 2
  exit 0
}

# What an agent lets a hook take before it kills it (60 s), less the time to answer; less still
# when HOOKLINE_RELAY_BUDGET says so (never more).
budget=55
[[ ${HOOKLINE_RELAY_BUDGET:-} =~ ^[1-9][0-9]?$ ]] && ((HOOKLINE_RELAY_BUDGET < budget)) && budget=$HOOKLINE_RELAY_BUDGET

# A guard answers allow (0, its JSON on stdout) or refuse (2): anything else (no Node, a crash) refuses.
ended() {
  [[ -z $guard || $1 == 0 || $1 == 2 ]] || fail "the Node client ended with status $1"
  exit "$1"
}

# The Node client, given what is left of this entry's time. In the background part (below) it
# takes that process's place, so the watchdog's kill reaches it.
fallback() {
  exec 3<&-
  local left=$((budget - SECONDS))
  ((left >= 2)) || fail "no time left to ask Hookline's server"
  [[ -f $dir/relay.cjs ]] || fail "$dir/relay.cjs is missing: Hookline moved or was removed — run \`hookline install $host\` again"
  [[ $BASHPID != "$$" ]] && exec "$node" "$dir/relay.cjs" "$@" --deadline "$left" 9>&- <<<"$input"
  printf '%s' "$input" | "$node" "$dir/relay.cjs" "$@" --deadline "$left" 9>&-
  ended $?
}

[[ $port =~ ^[1-9][0-9]{0,4}$ && $host =~ ^[a-z]+$ && $from =~ ^[a-z,]*$ && $event =~ ^[A-Za-z]*$ ]] || fallback "$@"

# The agent kills an entry that outlives its timeout (60 s), which some agents take as an allow:
# this one answers first, whatever it is waiting on (a connection, a write, the answer, the Node
# client). The watchdog signals this shell only while it is still its parent (a pid is not
# signalled once freed), and takes its sleep along when it is stopped.
# What this shell waits on runs in the background (job): a wait is cut short by the watchdog's
# signal, where a write or a read on a stalled connection is not; the job is then killed, not
# asked (a write that blocks takes no signal it can catch).
job=
late() {
  # Reaped here, where bash's own "Killed" line for the job goes to /dev/null, not to the agent.
  [[ -n $job ]] && { kill -KILL "$job" && wait "$job"; } 2>/dev/null
  fail "no answer from Hookline's server on 127.0.0.1:$port in $((budget + 2)) s"
}
trap late USR1
(
  trap 'kill $! 2>/dev/null; wait $!; exit 0' TERM
  sleep $((budget + 2)) &
  wait $!
  read -r _ _ _ parent _ </proc/$BASHPID/stat
  ((parent == $$)) && kill -USR1 $$
) </dev/null >/dev/null 2>&1 9>&- &
watchdog=$!
# Reaped before this entry exits, its sleep with it: the agent sees the entry end with nothing of it left.
trap 'kill "$watchdog" 2>/dev/null && wait "$watchdog" 2>/dev/null' EXIT

# Runs in the background (a subshell of its own: its pid is the one that holds the connection).
ask() {
  trap - EXIT USR1
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || fallback "$@"

  # Whose end accepted this connection: this socket's row in the kernel's table (by its inode)
  # gives this end's port, and the row of the accepting end (the server's port, then this one's,
  # established) gives its user.
  IFS= read -r -d '' info </proc/$BASHPID/fdinfo/3
  [[ $info =~ ino:[[:space:]]*([0-9]+) ]] || fallback "$@"
  local ino=${BASH_REMATCH[1]} tcp hex col mine
  tcp=$(</proc/net/tcp) 2>/dev/null
  printf -v hex '%04X' "$port"
  col=' +[0-9A-F]{8}:[0-9A-F]{8} +[0-9A-F]{2}:[0-9A-F]{8} +[0-9A-F]{8} +'
  [[ $tcp =~ \ ([0-9A-F]{8}):([0-9A-F]{4})\ ([0-9A-F]{8}):$hex\ 01$col[0-9]+\ +[0-9]+\ +$ino\  ]] || fallback "$@"
  mine=${BASH_REMATCH[1]}:${BASH_REMATCH[2]}
  # A connection to itself (the port free, this end given it) would read its own request back.
  [[ $mine != "${BASH_REMATCH[3]}:$hex" ]] || fallback "$@"
  [[ $tcp =~ \ ${BASH_REMATCH[3]}:$hex\ $mine\ 01$col([0-9]+)\  ]] || fallback "$@"
  ((BASH_REMATCH[1] == EUID)) || fallback "$@"

  local query="from=$from&event=$event" status code= length= line say body
  printf 'POST /hookline/command/%s?%s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nX-Hookline-Pid: %s\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
    "$host" "$query" "$port" "$BASHPID" "${#input}" "$input" >&3 2>/dev/null || fallback "$@"
  IFS= read -r status <&3 2>/dev/null || fail "no answer from Hookline's server on 127.0.0.1:$port"
  case $status in
    'HTTP/1.1 200 '*) ;;
    # An older server, or one that cannot see this process: it ran nothing, the Node client asks instead.
    'HTTP/1.1 403 '* | 'HTTP/1.1 404 '*) fallback "$@" ;;
    *) fail "Hookline's server answered ${status%$'\r'}" ;;
  esac
  while IFS= read -r line <&3 2>/dev/null; do
    line=${line%$'\r'}
    [[ -z $line ]] && break
    case $line in
      'x-hookline-exit: '*) code=${line#*: } ;;
      'content-length: '*) length=${line#*: } ;;
    esac
  done
  [[ $code =~ ^[0-9]{1,3}$ ]] && ((10#$code <= 255)) || fail "Hookline's server gave no exit status"
  # The lines for stderr, up to a NUL; then the answer; all of it, or none of it counts.
  IFS= read -r -d '' say <&3 2>/dev/null
  IFS= read -r -d '' body <&3 2>/dev/null
  [[ $length =~ ^[0-9]+$ ]] && ((${#say} + 1 + ${#body} == length)) || fail "Hookline's server's answer was cut short"
  printf '%s' "$say" >&2
  printf '%s' "$body"
  exit "$code"
}

ask "$@" &
job=$!
wait "$job"
ended $?
