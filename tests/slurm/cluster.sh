#!/usr/bin/env bash
# A single-node Slurm cluster on this machine for tests: munged with a generated key and slurmctld + slurmd
# with a generated slurm.conf, everything (sockets, spool, state, logs, pid files) in one folder.
#   source tests/slurm/cluster.sh; cluster_start DIR; ...; cluster_stop
# cluster_start exports SLURM_CONF (sbatch, squeue and scancel read it) and returns non-zero, with the daemons'
# logs on stderr, when the node does not come up. cluster_stop stops only the daemons it started.

cluster_pids=()

cluster_logs()
{
    local f
    for f in "$cluster_dir"/munged.log "$cluster_dir"/slurmctld.log "$cluster_dir"/slurmd.log; do
        [ -f "$f" ] || continue
        echo "---- $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
}

# A TCP port nobody listens on (bash's /dev/tcp: a refused connection means free).
free_port()
{
    local p=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
}

cluster_start()
{
    cluster_dir=$1
    mkdir -p "$cluster_dir/spool" "$cluster_dir/state" "$cluster_dir/munge"
    chmod 755 "$cluster_dir/munge" # munged wants the socket's folder searchable by all
    local host
    host=$(hostname -s)
    # munge: a fresh key, a private socket (AuthInfo below points slurm at it)
    dd if=/dev/urandom of="$cluster_dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$cluster_dir/munge/munge.key"
    munged --force --key-file="$cluster_dir/munge/munge.key" --socket="$cluster_dir/munge/munge.socket" \
        --pid-file="$cluster_dir/munge/munged.pid" --seed-file="$cluster_dir/munge/munged.seed" \
        --log-file="$cluster_dir/munged.log" || { cluster_logs; return 1; }
    cluster_pids+=("$(cat "$cluster_dir/munge/munged.pid")")
    local base=$((17000 + ($$ % 500) * 4))
    local ctld_port slurmd_port
    ctld_port=$(free_port "$base")
    slurmd_port=$(free_port $((ctld_port + 1)))
    cat >"$cluster_dir/slurm.conf" <<CONF
ClusterName=mwtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster_dir/munge/munge.socket
StateSaveLocation=$cluster_dir/state
SlurmdSpoolDir=$cluster_dir/spool
SlurmctldPidFile=$cluster_dir/slurmctld.pid
SlurmdPidFile=$cluster_dir/slurmd.pid
SlurmctldLogFile=$cluster_dir/slurmctld.log
SlurmdLogFile=$cluster_dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=300
PlugStackConfig=$cluster_dir/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    : >"$cluster_dir/plugstack.conf"
    export SLURM_CONF=$cluster_dir/slurm.conf
    slurmctld -i || { cluster_logs; return 1; }
    # the daemons write their pid files once they run
    local i
    for i in $(seq 1 50); do [ -s "$cluster_dir/slurmctld.pid" ] && break; sleep 0.1; done
    [ -s "$cluster_dir/slurmctld.pid" ] && cluster_pids+=("$(cat "$cluster_dir/slurmctld.pid")")
    slurmd || { cluster_logs; return 1; }
    for i in $(seq 1 50); do [ -s "$cluster_dir/slurmd.pid" ] && break; sleep 0.1; done
    [ -s "$cluster_dir/slurmd.pid" ] && cluster_pids+=("$(cat "$cluster_dir/slurmd.pid")")
    # up: the node is idle in sinfo (30 s at most)
    local state=""
    for i in $(seq 1 60); do
        state=$(sinfo -h -N -o %t 2>/dev/null | head -n 1)
        case "$state" in idle*) return 0 ;; esac
        sleep 0.5
    done
    echo "cluster: the node did not come up (sinfo state: '${state:-none}')" >&2
    cluster_logs
    return 1
}

cluster_stop()
{
    local p i
    # jobs still queued or running first, so that no job step outlives the cluster
    if [ ${#cluster_pids[@]} -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
        timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
        for i in $(seq 1 50); do
            [ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for p in "${cluster_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${cluster_pids[@]}"; do
        for i in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null || true
    done
    cluster_pids=()
}
