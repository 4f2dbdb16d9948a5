#!/usr/bin/env bash
# Interleaved A/B rounds of `kosumi bench` between two binaries.
#
#   bench-ab.sh REF NEW [ROUNDS]
#
# Each round runs, for REF then NEW: uniform playouts on 9x9 and 19x19, and
# the search benchmark (1 thread) from the empty board and the middle game.
# Every run is timed by user CPU time (/usr/bin/time -f %U), which a busy
# machine disturbs far less than wall time; the bench's own wall-clock
# figure is kept too. Prints per-round figures, then per benchmark the
# medians for REF and NEW and the ratio REF/NEW of the CPU-time medians
# (above 1 = NEW faster), plus mean_moves / black_win_rate for the uniform
# runs (they must agree: same policy).
#
# Environment: P9 P19 (uniform playouts per run, default 100000 / 20000),
# PS (search playouts, default 6000), SEED (default 1), SEARCH_EXTRA (words
# added to both search runs, e.g. `--nn none` to time the 19x19 search
# without the network that builds since the `auto` default use; only for
# two builds that both know `--nn`).
set -euo pipefail
REF=${1:?usage: bench-ab.sh REF NEW [ROUNDS]}
NEW=${2:?usage: bench-ab.sh REF NEW [ROUNDS]}
ROUNDS=${3:-5}
P9=${P9:-100000}
P19=${P19:-20000}
PS=${PS:-6000}
SEED=${SEED:-1}
SEARCH_EXTRA=${SEARCH_EXTRA:-}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

names=(u9 u19 s_empty s_middle)
args_for() {
  case $1 in
    u9) echo "bench --size 9 --playouts $P9 --seed $SEED" ;;
    u19) echo "bench --size 19 --playouts $P19 --seed $SEED" ;;
    s_empty) echo "bench --search --threads 1 --position empty --playouts $PS --repeat 1 --seed $SEED $SEARCH_EXTRA" ;;
    s_middle) echo "bench --search --threads 1 --position middle --playouts $PS --repeat 1 --seed $SEED $SEARCH_EXTRA" ;;
  esac
}

run_one() { # which bin name round
  local which=$1 bin=$2 name=$3 round=$4
  local line cpu
  # shellcheck disable=SC2046
  line=$( { /usr/bin/time -f "CPU %U" "$bin" $(args_for "$name") ; } 2>&1 | tr '\n' ' ')
  cpu=$(sed -n 's/.*CPU \([0-9.]*\).*/\1/p' <<<"$line")
  echo "$cpu" >>"$OUT/$which.$name.cpu"
  sed -n 's/.*playouts_per_s=\([0-9.]*\).*/\1/p' <<<"$line" >>"$OUT/$which.$name.pps"
  sed -n 's/.*mean_moves=\([0-9.]*\).*/\1/p' <<<"$line" >>"$OUT/$which.$name.mm"
  sed -n 's/.*black_win_rate=\([0-9.]*\).*/\1/p' <<<"$line" >>"$OUT/$which.$name.bw"
  printf 'round %d %-4s %-9s cpu=%-6s %s\n' "$round" "$which" "$name" "$cpu" "$line"
}

for r in $(seq 1 "$ROUNDS"); do
  for name in "${names[@]}"; do
    run_one ref "$REF" "$name" "$r"
    run_one new "$NEW" "$name" "$r"
  done
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo
printf '%-9s %12s %12s %8s   %s\n' bench ref_cpu_s new_cpu_s ratio 'wall playouts/s medians (ref new), uniform: mean_moves black_win_rate'
for name in "${names[@]}"; do
  rc=$(median <"$OUT/ref.$name.cpu")
  nc=$(median <"$OUT/new.$name.cpu")
  ratio=$(awk -v a="$rc" -v b="$nc" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }')
  extra="$(median <"$OUT/ref.$name.pps" 2>/dev/null) $(median <"$OUT/new.$name.pps" 2>/dev/null)"
  if [[ $name == u* ]]; then
    extra="$extra  ref $(head -1 "$OUT/ref.$name.mm") $(head -1 "$OUT/ref.$name.bw")  new $(head -1 "$OUT/new.$name.mm") $(head -1 "$OUT/new.$name.bw")"
  fi
  printf '%-9s %12s %12s %8s   %s\n' "$name" "$rc" "$nc" "$ratio" "$extra"
done
