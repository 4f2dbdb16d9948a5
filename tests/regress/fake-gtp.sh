#!/bin/sh
# A fake GTP engine for tests/regress_cli.rs. Commands:
#   answer WORDS   answers WORDS
#   remember WORD  keeps WORD (engine state, to be replayed after a restart)
#   recall         answers the kept word (empty if none)
#   play C V       adds p:C:V to the move list
#   genmove C      answers C3 and adds g:C:C3 to the move list
#   reg_genmove C  answers C3 and adds r:C to the move list (a real engine
#                  changes no state here; this one shows a replay)
#   moves          answers the move list
#   readfile F     answers the first line of F (relative to the working dir)
#   fail           answers with an error (and adds f to the move list)
#   crash          exits at once, with a word on stderr
#   hang           sleeps for a minute without answering
# Anything else is an unknown command.
mem=
moves=
while IFS= read -r line; do
  set -- $line
  id=
  case $1 in [0-9]*) id=$1; shift;; esac
  cmd=$1
  [ $# -gt 0 ] && shift
  case $cmd in
    answer) printf '=%s %s\n\n' "$id" "$*";;
    remember) mem=$1; printf '=%s\n\n' "$id";;
    play) moves="$moves p:$1:$2"; printf '=%s\n\n' "$id";;
    genmove) moves="$moves g:$1:C3"; printf '=%s C3\n\n' "$id";;
    reg_genmove) moves="$moves r:$1"; printf '=%s C3\n\n' "$id";;
    moves) printf '=%s %s\n\n' "$id" "$moves";;
    recall) printf '=%s %s\n\n' "$id" "$mem";;
    readfile) printf '=%s %s\n\n' "$id" "$(head -n 1 "$1")";;
    fail) moves="$moves f"; printf '?%s this fails\n\n' "$id";;
    crash) echo "fake: crashing on purpose" >&2; exit 3;;
    hang) sleep 60;;
    list_commands) printf '=%s answer\nplay\ngenmove\nreg_genmove\nmoves\nremember\nrecall\nreadfile\nfail\ncrash\nhang\nname\nversion\nlist_commands\nquit\n\n' "$id";;
    name) printf '=%s fake\n\n' "$id";;
    version) printf '=%s 1\n\n' "$id";;
    quit) printf '=%s\n\n' "$id"; exit 0;;
    *) printf '?%s unknown command\n\n' "$id";;
  esac
done
