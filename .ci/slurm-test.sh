#!/usr/bin/env bash
# A real one-node Slurm cluster (Debian's slurm-wlm and munge; no systemd,
# no cgroups: proctrack/linuxproc, task/none) running the job files of
# deploy/slurm/, checked against one-machine runs:
#   - the self-play array (4 tasks): SGF files byte-identical to
#     `kosumi selfplay` with the same seed;
#   - a sharded SPRT match against GNU Go level 1 (4 tasks and the merge
#     job after them, --dependency=afterok): the merged table equal game
#     for game to the one-machine match's, the same LLR;
#   - an array element cancelled midway (scancel) and resubmitted alone:
#     the run completes with nothing lost or doubled;
#   - a regression array (4 tasks) with a fake engine: the merged report
#     equal to the one-machine report, times aside.
# Needs root (it starts the daemons) and target/release/kosumi (built by
# `cargo test --release` before it in .ci/run). Stops the daemons at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
kosumi="$repo/target/release/kosumi"
[ -x "$kosumi" ] || { echo "slurm-test: build target/release/kosumi first" >&2; exit 1; }
gnugo=/usr/games/gnugo
[ -x "$gnugo" ] || { echo "slurm-test: $gnugo is missing" >&2; exit 1; }
start_time=$(date +%s)

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge
fi

t="$(mktemp -d /tmp/kosumi-slurm.XXXXXX)"
chmod 755 "$t"
mkdir -p "$t/state" "$t/spool" "$t/munge" "$t/work"
host="$(hostname -s)"
cpus="$(nproc)"

cleanup() {
  set +e
  scancel --user=root >/dev/null 2>&1
  for p in slurmd slurmctld; do
    [ -f "$t/$p.pid" ] && kill "$(cat "$t/$p.pid")" 2>/dev/null
  done
  sleep 1
  if [ -f "$t/munge/munged.pid" ]; then
    mpid="$(cat "$t/munge/munged.pid")"
    kill "$mpid" 2>/dev/null
    # munged removes its own socket and pid file as it exits: wait for it
    # (at most 5 s) before removing the folder under it.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 "$mpid" 2>/dev/null || break
      sleep 0.5
    done
  fi
  if [ "${keep:-0}" != 1 ]; then rm -rf "$t"; fi
}
trap cleanup EXIT

# munge: its own key and socket under $t, run as the munge user.
chown munge:munge "$t/munge"
chmod 711 "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 status=none
chown munge:munge "$t/munge/munge.key"
chmod 400 "$t/munge/munge.key"
sock="$t/munge/munge.socket"
runuser -u munge -- /usr/sbin/munged --key-file="$t/munge/munge.key" \
  --socket="$sock" --pid-file="$t/munge/munged.pid" \
  --log-file="$t/munge/munged.log" --seed-file="$t/munge/munged.seed"

cat >"$t/slurm.conf" <<EOF
ClusterName=kosumi-ci
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
export SLURM_CONF="$t/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"

for _ in $(seq 60); do
  state="$(sinfo -h -n "$host" -o %T 2>/dev/null || true)"
  [ "$state" = idle ] && break
  sleep 1
done
if [ "$state" != idle ]; then
  echo "slurm-test: the node is '$state', not idle" >&2
  tail -n 20 "$t/slurmctld.log" "$t/slurmd.log" >&2
  keep=0
  exit 1
fi
echo "slurm-test: one-node cluster up ($cpus CPUs) in $(($(date +%s) - start_time)) s"

fail() {
  echo "slurm-test: $*" >&2
  exit 1
}

# Self-play: settings shared by the array and the one-machine run.
export KOSUMI="$kosumi" SHARDS=4 SIZE=9 KOMI=7 PLAYOUTS=60 SEED=7
sp_games=12
"$kosumi" selfplay --games "$sp_games" --size 9 --komi 7 --playouts 60 --seed 7 \
  --threads 1 --out "$t/sp-one" >/dev/null
OUT="$t/sp" GAMES="$sp_games" sbatch --wait --quiet --chdir="$t/work" deploy/slurm/selfplay.sbatch
same_sgf() {
  local a="$1" b="$2"
  [ "$(cd "$a" && ls game-*.sgf)" = "$(cd "$b" && ls game-*.sgf)" ] || return 1
  for f in "$a"/game-*.sgf; do cmp -s "$f" "$b/$(basename "$f")" || return 1; done
}
same_sgf "$t/sp" "$t/sp-one" || fail "self-play array: the SGF files differ from the one-machine run"
"$kosumi" selfplay summarize "$t/sp" | grep -q "games present $sp_games of $sp_games  duplicates 0" ||
  fail "self-play array: the merged tables are not the whole run"
echo "slurm-test: self-play array of 4 = one-machine run, $sp_games SGF files byte-identical"

# A task killed midway and resubmitted: more games, so that task 1 is
# still playing when it is cancelled.
kill_games=24
"$kosumi" selfplay --games "$kill_games" --size 9 --komi 7 --playouts 60 --seed 7 \
  --threads 1 --out "$t/kill-one" >/dev/null
job=$(OUT="$t/kill" GAMES="$kill_games" sbatch --parsable --chdir="$t/work" deploy/slurm/selfplay.sbatch)
job="${job%%;*}"
for _ in $(seq 600); do
  [ -f "$t/kill/game-000001.sgf" ] && break
  sleep 0.2
done
scancel "${job}_1"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
mine=$(cd "$t/kill" && ls game-*.sgf | awk -F'[-.]' '($2 + 0) % 4 == 1' | wc -l)
[ "$mine" -lt $((kill_games / 4)) ] || fail "task 1 finished before it was cancelled"
OUT="$t/kill" GAMES="$kill_games" sbatch --wait --quiet --array=1 --chdir="$t/work" deploy/slurm/selfplay.sbatch
same_sgf "$t/kill" "$t/kill-one" || fail "killed and resubmitted: the SGF files differ from the one-machine run"
"$kosumi" selfplay summarize "$t/kill" | grep -q "games present $kill_games of $kill_games  duplicates 0" ||
  fail "killed and resubmitted: games lost or doubled"
nrows=$(cat "$t"/kill/selfplay-*.tsv | grep -c '^[0-9]')
[ "$nrows" = "$kill_games" ] || fail "killed and resubmitted: $nrows table rows for $kill_games games"
echo "slurm-test: task 1 cancelled after $mine of its $((kill_games / 4)) games, resubmitted: all $kill_games games once, byte-identical"

# A sharded SPRT match against GNU Go level 1, the merge job after it.
export OPPONENT="$gnugo --mode gtp --level 1" SPRT="-100,100" KOMI=7.5 PLAYOUTS=60 SEED=3
m_games=16
"$kosumi" match --opponent "$OPPONENT" --games "$m_games" --size 9 --komi 7.5 \
  --playouts 60 --seed 3 --threads 1 "--sprt=$SPRT" --out "$t/m-one" >/dev/null
OUT="$t/m" GAMES="$m_games" WAIT=1 SBATCH_EXTRA="--chdir=$t/work" deploy/slurm/sprt.sh
[ -f "$t/m/summary.json" ] || fail "match: no summary from the merge job"
"$kosumi" match summarize --json "$t/m-one" >"$t/m-one.json"
rows() { # the rows of the tables in $1, without thinking times, by game
  cat "$1"/match*.tsv | awk -F'\t' '/^[0-9]/ { print $1, $2, $3, $4, $7, $8 }' | sort -n
}
counted=$(sed -E 's/.*"kind":"match","opponent":"[^"]*","games":([0-9]+).*/\1/' "$t/m-one.json")
diff <(rows "$t/m-one") <(rows "$t/m" | head -n "$counted") >/dev/null ||
  fail "match: the merged table differs from the one-machine match"
sprt_of() { grep -o '"sprt":{[^}]*}' "$1"; }
[ "$(sprt_of "$t/m/summary.json")" = "$(sprt_of "$t/m-one.json")" ] ||
  fail "match: the merged SPRT differs: $(sprt_of "$t/m/summary.json") vs $(sprt_of "$t/m-one.json")"
echo "slurm-test: sharded match of 4 + merge = one-machine match ($counted games counted, $(sprt_of "$t/m-one.json"))"
# A regression array (4 tasks) with the fake engine of tests/regress/,
# merged: the one-machine report, times aside.
suite="$repo/tests/regress/pieces.tst"
fake="sh $repo/tests/regress/fake-gtp.sh"
untimed() { sed -E 's/"seconds":[0-9.]+/"seconds":0/g'; }
"$kosumi" regress --json --engine "$fake" "$suite" | untimed >"$t/regress-one.json"
OUT="$t/regress" SUITES="$suite" ENGINE="$fake" sbatch --wait --quiet --chdir="$t/work" \
  deploy/slurm/regress.sbatch
[ "$(ls "$t/regress" | wc -l)" = 4 ] || fail "regress: $(ls "$t/regress")"
"$kosumi" regress merge --json "$t"/regress/report-*.json | untimed >"$t/regress-merged.json"
cmp -s "$t/regress-one.json" "$t/regress-merged.json" ||
  fail "regress: the merged report differs from the one-machine report"
echo "slurm-test: regress array of 4 merged = one-machine report"
echo "slurm-test: passed in $(($(date +%s) - start_time)) s"
