#!/bin/bash
# Tests scripts/slurm for real on this machine: installs Debian's slurm-wlm and munge, starts a
# one-node Slurm (munged, slurmctld, slurmd on localhost), submits a 4-shard reproduction with
# submit.sh, waits for the merge job, and compares its table and rows with the unsharded run's,
# byte for byte. Stops the daemons it started. Needs root (apt-get, daemons) and Debian/Ubuntu.
#
#   scripts/slurm/local-test.sh            # from the workspace root; builds the CLI if needed
#
# Takes about a minute and a half once the packages are installed (see docs/cluster.md). Not
# part of CI: it installs system packages and starts system daemons.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/slurm"
work=$(mktemp -d /tmp/gametree-slurm.XXXXXX)
run=(reproduce scsp-table3 --games 2 --samples 20 --seed 7)
start=$(date +%s)
say() { echo "[$(($(date +%s) - start)) s] $*"; }

if [ "$(id -u)" -ne 0 ]; then
    echo "local-test.sh: run as root (it installs slurm-wlm and starts its daemons)" >&2
    exit 2
fi
export GAMETREE=${GAMETREE:-${CARGO_TARGET_DIR:-$root/target}/release/gametree}
if [ ! -x "$GAMETREE" ]; then
    say "building the CLI"
    (cd "$root" && cargo build --release -p gametree-cli)
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

# Munge authenticates the daemons and the clients to each other; one key on one host.
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
pids=()
stop() {
    # Only the daemons this script started, by their pid files.
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop EXIT
if ! munge -n </dev/null >/dev/null 2>&1; then
    # munged runs as munge, so its pid file goes where munge may write.
    su -s /bin/sh munge -c "munged --pid-file=/run/munge/munged.pid"
    sleep 1
    pids+=("$(cat /run/munge/munged.pid)")
fi

# A one-node cluster: this host runs the controller and the node daemon; no cgroups (containers
# often have none to give), no accounting database.
node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/ctld" "$work/d"
cat > "$work/slurm.conf" <<CONF
ClusterName=gametree-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
say "starting slurmctld and slurmd (config and logs in $work)"
slurmctld -c -f "$SLURM_CONF"
sleep 1
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
sleep 1
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
if [ "$state" != idle ]; then
    echo "local-test.sh: the node never became idle (state: ${state:-none}); see $work/*.log" >&2
    exit 1
fi

say "submitting ${run[*]} as 4 shards"
line=$("$here/submit.sh" -n 4 -o "$work/run" "${run[@]}")
echo "$line"
merge=$(echo "$line" | sed -n 's/.*merge: job \([0-9]*\).*/\1/p')
say "running the same unsharded, for comparison"
"$GAMETREE" "${run[@]}" > "$work/unsharded.txt"
"$GAMETREE" "${run[@]}" --json > "$work/unsharded.jsonl"
while squeue -h -j "$merge" 2>/dev/null | grep -q .; do sleep 2; done
state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
if [ "$state" != COMPLETED ]; then
    echo "local-test.sh: the merge job ended ${state:-unseen}; see $work/run/*.log" >&2
    exit 1
fi
diff "$work/unsharded.txt" "$work/run/result.txt"
diff "$work/unsharded.jsonl" "$work/run/result.jsonl"
say "OK: 4 Slurm shards merged = the unsharded run, text and JSON, byte for byte ($work)"
