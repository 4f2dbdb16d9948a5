#!/bin/bash
# Submits a sharded match (deploy/slurm/match.sbatch, an array of SHARDS
# tasks) and the merge job that runs once every task has succeeded.
# Settings travel in the environment (sbatch --export=ALL, the default):
#   OUT=/shared/sprt SPRT=0,10 GAMES=2000 SHARDS=16 deploy/slurm/sprt.sh
# Extra sbatch options (e.g. --partition) go in SBATCH_EXTRA; WAIT=1 waits
# for the merge job (sbatch --wait) and exits with its status.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shards="${SHARDS:-4}"
export SHARDS="$shards"
array=$(sbatch --parsable --array="0-$((shards - 1))" ${SBATCH_EXTRA:-} "$here/match.sbatch")
array="${array%%;*}"
echo "match array: job $array"
if [ "${WAIT:-0}" = 1 ]; then
  echo "merge: after $array, waiting"
  sbatch --wait --quiet --dependency="afterok:$array" ${SBATCH_EXTRA:-} "$here/match-merge.sbatch"
else
  merge=$(sbatch --parsable --dependency="afterok:$array" ${SBATCH_EXTRA:-} "$here/match-merge.sbatch")
  echo "merge: job ${merge%%;*} (after $array)"
fi
