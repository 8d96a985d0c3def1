#!/bin/bash
# Submits a sharded `gametree reproduce` or `gametree match` run to Slurm: a job array of N shards,
# then a merge job that starts when every shard has succeeded (--dependency=afterok).
#
#   scripts/slurm/submit.sh [-n SHARDS] [-c CPUS] [-o OUTDIR] [-p PARTITION] [-t TIME] COMMAND [ARGS...]
#
# e.g.  GAMETREE=$PWD/target/release/gametree \
#       scripts/slurm/submit.sh -n 100 -c 4 -o runs/table3 reproduce scsp-table3 --games 5000
#
# Results: OUTDIR/result.txt (the table) and OUTDIR/result.jsonl (its rows, as --json prints
# them); shards in OUTDIR/shard-K.jsonl, logs in OUTDIR/*.log. Prints the two job ids.
set -euo pipefail

shards=4 cpus=1 out= extra=()
while getopts "n:c:o:p:t:h" opt; do
    case $opt in
        n) shards=$OPTARG ;;
        c) cpus=$OPTARG ;;
        o) out=$OPTARG ;;
        p) extra+=(--partition="$OPTARG") ;;
        t) extra+=(--time="$OPTARG") ;;
        *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
    echo "submit.sh: name the gametree command to shard, e.g. reproduce scsp-table3 --games 5000" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
out=${out:-gametree-run-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Every job runs the same binary: an absolute path, exported to the jobs (sbatch exports the
# environment by default).
export GAMETREE=${GAMETREE:-$(command -v gametree)}

array=$(sbatch --parsable "${extra[@]}" --array="0-$((shards - 1))" --cpus-per-task="$cpus" \
    --output="$out/shard-%a.log" "$here/reproduce.sbatch" "$out" "$shards" "$@")
array=${array%%;*}
# The shards in numeric order are not needed (merge takes them in any order), but all of them are.
merge=$(sbatch --parsable "${extra[@]}" --dependency="afterok:$array" --job-name=gametree-merge \
    --output="$out/merge.log" \
    --wrap="\"\$GAMETREE\" merge \"$out\"/shard-*.jsonl > \"$out/result.txt\" && \
            \"\$GAMETREE\" merge --json \"$out\"/shard-*.jsonl > \"$out/result.jsonl\"")
merge=${merge%%;*}
echo "shards: job $array (array 0-$((shards - 1))); merge: job $merge; results in $out"
