#!/bin/sh
# mm preToolCall hook: denies "rm -rf", lets everything else through (no answer).
input=$(cat)
case "$input" in
  *'rm -rf'*) echo '{"action":"deny","reason":"no rm -rf here"}' ;;
esac
exit 0
