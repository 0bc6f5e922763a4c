#!/bin/sh
# A real Slurm cluster on this machine for the Slurm provider's tests: its own munged (own key
# and socket), slurmctld and one slurmd per node from Debian's slurm-wlm, all state under DIR
# and listening on free ports, so it never touches a Slurm or munge the machine may already run.
# Needs root (slurmd starts jobs as their user) and the Debian packages slurm-wlm and munge.
#
#   test-slurm.sh up DIR [N]  write DIR/slurm.conf for this machine (N nodes, default 1, all in
#                             partition "debug"), start the daemons, wait until every node is
#                             idle; prints the node names, one a line. One node is called like
#                             this machine and has its hardware; N > 1 are "<host>-1".."<host>-N",
#                             each its own slurmd on its own port with a share of the CPUs and
#                             memory (Slurm's multiple-slurmd mode, NodeHostname = this machine)
#   test-slurm.sh down DIR    cancel every job, stop the daemons, remove their state
#
# Clients use the cluster with SLURM_CONF=DIR/slurm.conf.
# Exit codes: 0 done, 2 usage, 3 something is missing (the message says what), 1 other failures.
set -eu

die() { echo "test-slurm: $2" >&2; exit "$1"; }

need() {
    [ "$(id -u)" = 0 ] || die 3 "needs root (slurmd runs jobs as their user)"
    for p in munged slurmctld slurmd sbatch squeue scancel sinfo; do
        command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
            die 3 "'$p' is missing: apt-get install slurm-wlm munge"
    done
}

sbin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# A TCP port nobody listens on, from FROM upwards (ss from iproute2; without it FROM is taken).
free_port() { # FROM
    p=$1
    while [ "$p" -lt $(($1 + 2000)) ]; do
        if ! command -v ss >/dev/null 2>&1 || [ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ]; then
            echo "$p"
            return 0
        fi
        p=$((p + 1))
    done
    die 1 "no free TCP port in $1..$(($1 + 2000))"
}

# Until COMMAND succeeds, at most SECONDS; else die with the last lines of LOG.
# (POSIX sh has no local variables: the helpers' names do not overlap.)
wait_for() { # SECONDS LOG WHAT COMMAND...
    tries=0 limit=$(($1 * 10)) log=$2 what=$3
    shift 3
    while [ "$tries" -lt "$limit" ]; do
        "$@" >/dev/null 2>&1 && return 0
        tries=$((tries + 1))
        sleep 0.1
    done
    die 1 "$what: $(tail -n 5 "$log" 2>/dev/null | tr '\n' ' ')"
}

all_idle() { # DIR N
    [ "$(SLURM_CONF="$1/slurm.conf" sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)" -eq "$2" ]
}

# The node lines: one node with this machine's hardware, or N with a share of it each.
node_lines() { # HOST N FIRST_PORT
    host=$1 nodes=$2 port=$3
    if [ "$nodes" -eq 1 ]; then
        # What slurmd finds here (CPUs, sockets, cores, threads, RealMemory in MiB).
        hw=$("$(sbin slurmd)" -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p')
        [ -n "$hw" ] ||
            hw="CPUs=$(nproc) RealMemory=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)"
        echo "NodeName=$host Port=$port $hw State=UNKNOWN"
        return 0
    fi
    cpus=$(($(nproc) / nodes))
    [ "$cpus" -ge 1 ] || cpus=1
    mem=$(awk -v n="$nodes" '/MemTotal/ {print int($2 / 1024 / n)}' /proc/meminfo)
    i=1
    while [ "$i" -le "$nodes" ]; do
        port=$(free_port "$port")
        echo "NodeName=$host-$i NodeHostname=$host Port=$port CPUs=$cpus RealMemory=$mem" \
            "State=UNKNOWN"
        port=$((port + 1))
        i=$((i + 1))
    done
}

write_conf() { # DIR HOST N
    dir=$1 host=$2 count=$3
    # Random start: two clusters brought up at once rarely race for the same port.
    base=$((20000 + $$ % 5000 * 2))
    ctld=$(free_port "$base")
    lines=$(node_lines "$host" "$count" "$(free_port $((ctld + 1)))")
    names=$(echo "$lines" | sed 's/^NodeName=\([^ ]*\) .*/\1/' | paste -sd, -)
    : >"$dir/plugstack.conf"
    cat >"$dir/slurm.conf" <<EOF
# Written by tests/support/test-slurm.sh for one test run; removed by 'down'.
ClusterName=tessera-test
SlurmctldHost=$host
SlurmctldPort=$ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=5
$lines
PartitionName=debug Nodes=$names Default=YES MaxTime=INFINITE State=UP
EOF
}

cmd_up() { # DIR N
    need
    count=$2
    mkdir -p "$1"
    dir=$(cd "$1" && pwd)
    [ ! -e "$dir/slurm.conf" ] || die 1 "$dir already holds a test cluster: run 'down' first"
    host=$(hostname -s)
    # munged wants every folder on its socket's path searchable by all (clients of any user);
    # its key, seed, log and pid stay in a private folder.
    mkdir -p "$dir/munge" "$dir/munge-private" "$dir/state" "$dir/spool"
    chmod 711 "$dir"
    chmod 755 "$dir/munge"
    chmod 700 "$dir/munge-private"
    write_conf "$dir" "$host" "$count"
    # munged: its own 1 KiB key, socket, pid, log and seed files, nothing in /etc or /run.
    m=$dir/munge-private
    umask 077
    dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 2>/dev/null
    umask 022
    "$(sbin munged)" --socket="$dir/munge/munge.socket" --key-file="$m/munge.key" \
        --pid-file="$m/munged.pid" --log-file="$m/munged.log" --seed-file="$m/munged.seed" ||
        die 1 "munged did not start: $(tail -n 3 "$m/munged.log" 2>/dev/null | tr '\n' ' ')"
    wait_for 10 "$m/munged.log" "munged did not create its socket" \
        test -S "$dir/munge/munge.socket"
    # -D: stay in the foreground of a background shell job, so nothing double-forks away.
    "$(sbin slurmctld)" -D -c -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 </dev/null &
    echo $! >"$dir/slurmctld.job"
    wait_for 30 "$dir/slurmctld.log" "slurmctld did not answer" \
        env SLURM_CONF="$dir/slurm.conf" scontrol ping
    names=$(sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' "$dir/slurm.conf")
    for node in $names; do
        "$(sbin slurmd)" -D -N "$node" -f "$dir/slurm.conf" >"$dir/slurmd-$node.out" 2>&1 \
            </dev/null &
        echo $! >"$dir/slurmd-$node.job"
    done
    wait_for 60 "$dir/slurmd-$(echo "$names" | head -n 1).log" \
        "not all $count node(s) became idle" all_idle "$dir" "$count"
    echo "$names"
}

stop_pid() { # PIDFILE
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 100 ]; do
        waited=$((waited + 1))
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

cmd_down() { # DIR
    dir=$1
    [ -e "$dir/slurm.conf" ] || return 0
    export SLURM_CONF="$dir/slurm.conf"
    # Jobs first, while the slurmds still run to end their steps.
    jobs=$(squeue -h -o %i 2>/dev/null || true)
    if [ -n "$jobs" ]; then
        # shellcheck disable=SC2086 # one id per word
        scancel $jobs 2>/dev/null || true
        waited=0
        while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ "$waited" -lt 150 ]; do
            waited=$((waited + 1))
            sleep 0.1
        done
    fi
    for job in "$dir"/slurmd-*.job; do
        stop_pid "$job"
    done
    stop_pid "$dir/slurmctld.job"
    stop_pid "$dir/munge-private/munged.pid"
    rm -rf "$dir/state" "$dir/spool" "$dir/munge" "$dir/munge-private" "$dir/slurm.conf"
}

case "${1:-}" in
up)
    [ $# -eq 2 ] || [ $# -eq 3 ] || die 2 "usage: $0 up DIR [N]"
    case "${3:-1}" in '' | *[!0-9]* | 0) die 2 "N must be a whole number from 1" ;; esac
    cmd_up "$2" "${3:-1}"
    ;;
down) [ $# -eq 2 ] || die 2 "usage: $0 down DIR"; cmd_down "$2" ;;
*) die 2 "usage: $0 up DIR [N] | down DIR" ;;
esac
