#!/usr/bin/env bash
# relay.sh NODE AGENT --http-port PORT [--hooks-from LIST] [--event NAME] [--guard]
#
# What Hookline's command entries run (`hookline install`) where the kernel can say who is at the
# other end of a loopback connection (Linux): a shell starts in a few milliseconds, where Node
# takes tens. It hands the event to the user's warm server on 127.0.0.1:PORT, which answers only
# this user's processes and reads the event's environment and folder from this process itself.
# Anything short of that server (none listening, another user's program on the port, no
# /proc/net/tcp, an older server) goes to relay.cjs, the Node client, which starts the server.
# The input is only ever data here: nothing of it is run.
node=$1
shift
host=$1
dir=${BASH_SOURCE[0]%/*}
# Inside the relay's own hooks an entry answers nothing at once: no loop.
[[ -n ${HOOKLINE_RELAYING:-} ]] && exit 0
export LC_ALL=C
# cat, not $(</dev/stdin): an agent's stdin may be a socket, which cannot be opened by path.
input=$(cat)
# A peer that closes early makes a write fail (and is then not trusted), rather than end this shell.
trap '' PIPE

fallback() {
  exec 3<&-
  printf '%s' "$input" | "$node" "$dir/relay.cjs" "$@"
  exit $?
}

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
[[ $port =~ ^[0-9]+$ && $host =~ ^[a-z]+$ && $from =~ ^[a-z,]*$ && $event =~ ^[A-Za-z]*$ ]] || fallback "$@"

# The listener on the port must be this user's: a program of another user there gets nothing.
printf -v hex '%04X' "$port"
IFS= read -r -d '' tcp </proc/net/tcp 2>/dev/null
[[ $tcp =~ (0100007F|7F000001):$hex\ 00000000:0000\ 0A\ [0-9A-F:]+\ [0-9A-F:]+\ [0-9A-F]+\ +([0-9]+) ]] || fallback "$@"
((BASH_REMATCH[2] == EUID)) || fallback "$@"
{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || fallback "$@"

# Past this point the event may have been run: a missing answer is never asked again, it is refused.
fail() {
  printf 'hookline: Hookline could not decide (%s)%s\n' "$1" "${guard:+; refused to be safe}" >&2
  [[ -n $guard ]] && exit 2
  exit 0
}
query="from=$from&event=$event"
printf 'POST /hookline/command/%s?%s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Hookline-Pid: %s\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
  "$host" "$query" "$$" "${#input}" "$input" >&3 2>/dev/null || fallback "$@"
# The server keeps its own deadline (55 s) and answers by then; this is for one that hangs.
IFS= read -r -t 58 status <&3 2>/dev/null || fail "no answer from Hookline's server on 127.0.0.1:$port"
case $status in
  'HTTP/1.1 200 '*) ;;
  # An older server, or one that cannot see this process: it ran nothing, the Node client asks instead.
  'HTTP/1.1 403 '* | 'HTTP/1.1 404 '*) fallback "$@" ;;
  *) fail "Hookline's server answered ${status%$'\r'}" ;;
esac
code=
while IFS= read -r -t 58 line <&3 2>/dev/null; do
  line=${line%$'\r'}
  [[ -z $line ]] && break
  case $line in
    'x-hookline-exit: '*) code=${line#*: } ;;
    'x-hookline-say: '*) printf 'hookline: %s\n' "${line#*: }" >&2 ;;
  esac
done
[[ $code =~ ^[0-9]+$ ]] || fail "Hookline's server gave no exit status"
# The lines for stderr, up to a NUL; then the answer.
IFS= read -r -d "" -t 58 say <&3 2>/dev/null
printf '%s' "$say" >&2
IFS= read -r -d "" -t 58 body <&3 2>/dev/null
printf '%s' "$body"
exit "$code"
