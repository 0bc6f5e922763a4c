#!/bin/sh
# Separate test hosts on this machine for the SSH provider's tests: each host is a network
# namespace with its own address in 198.18.0.0/15 (RFC 2544's benchmarking range, so it never
# collides with a real network), its own host name (UTS namespace) and its own sshd, joined to
# the calling namespace by a veth pair on a bridge. The hosts of one DIR share that bridge and
# its subnet 198.18.K.0/24, so they reach each other without any routing in the calling
# namespace. Needs root, iproute2, openssh-server and util-linux's unshare (nftables for
# 'firewall' and TEST_HOSTS_FIREWALL).
#
#   test-hosts.sh up DIR N     make N hosts (N may be 0: the bridge only, for 'add'); DIR
#                              receives hosts.txt ("name address ns" per line), known_hosts
#                              (their host keys), id_ed25519 (a client key they accept for root)
#                              and one folder per host hI with its sshd's files
#   test-hosts.sh add DIR      one more host on DIR's bridge (DIR made by 'up'); its index is the
#                              next one (indices are never reused); prints its hosts.txt line
#   test-hosts.sh remove DIR I host I's processes killed, its namespace and veth deleted (the
#                              other hosts are untouched; its folder and lines stay as a record)
#   test-hosts.sh kill DIR I   host I (1-based) dies: its link goes down, its processes get SIGKILL
#   test-hosts.sh cut DIR I    host I's link goes down (its processes live on)
#   test-hosts.sh mend DIR I   host I's link comes back up
#   test-hosts.sh firewall DIR I   host I's inbound firewall becomes the nftables ruleset on stdin,
#                              applied atomically in its namespace (nft -f) after the table
#                              "inet lambda" it had is deleted: stdin should define that table
#                              (empty stdin: no table, every port open)
#   test-hosts.sh rekey DIR I KEYFILE  host I's sshd takes the ed25519 private host key KEYFILE
#                              (its public key KEYFILE.pub, made from KEYFILE when absent) and
#                              reloads (SIGHUP); returns once it answers with it. DIR/known_hosts
#                              is not changed (it keeps the key the host had when it came up).
#   test-hosts.sh down DIR     every host of DIR ends (added ones included): processes,
#                              namespaces, veths, bridge
#
# Optional environment for 'up' and 'add' (as a cloud's instance gets them from its launch
# request), read by each call: with 'add' every host can have its own.
#   TEST_HOSTS_AUTHORIZED_KEYS=FILE  public keys (authorized_keys format) that root also accepts,
#                                    besides DIR/id_ed25519 (each host has its own copy, hI/
#                                    authorized_keys)
#   TEST_HOSTS_HOST_KEY=FILE         the ed25519 private host key the hosts' sshd uses instead of
#                                    a fresh one; its public key is FILE.pub (made from FILE when
#                                    absent). known_hosts lists it for each host as usual.
#   TEST_HOSTS_FIREWALL=FILE         an nftables ruleset (as for 'firewall') applied in each new
#                                    host's namespace before its sshd starts, so the host never
#                                    answers unfiltered. The wait for sshd then asks from inside
#                                    the host (the firewall may refuse this namespace).
#   TEST_HOSTS_BARE=1                every host is a bare Linux machine: SSH sessions run chrooted
#                                    in DIR/hI/root, which holds BusyBox (static) and nothing
#                                    else: no glibc, no Open MPI, no Debian library (plus /proc,
#                                    /sys, /dev, a /tmp of its own and /usr/share/datasets, the
#                                    data a user would have put there). Needs busybox-static.
#   TEST_HOSTS_NVIDIA_SMI=FILE       with TEST_HOSTS_BARE: FILE (a script) is the bare hosts'
#                                    /bin/nvidia-smi, so the SSH check sees the GPUs and driver it
#                                    prints (tests of the GPU bootstrap without a GPU)
#
# Exit codes: 0 done, 2 usage, 3 something is missing (the message says what), 1 other failures.
set -eu

die() { echo "test-hosts: $2" >&2; exit "$1"; }

need() {
    [ "$(id -u)" = 0 ] || die 3 "needs root (network namespaces and a bridge)"
    for p in ip unshare ssh-keygen ssh-keyscan /usr/sbin/sshd; do
        command -v "$p" >/dev/null 2>&1 ||
            die 3 "'$p' is missing: apt-get install iproute2 util-linux openssh-client openssh-server"
    done
    if [ -n "${TEST_HOSTS_BARE-}" ] && ! /bin/busybox --list 2>/dev/null | grep -qx sh; then
        die 3 "bare hosts need /bin/busybox: apt-get install busybox-static"
    fi
}

# nft (nftables), for a host's firewall.
need_nft() {
    command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] ||
        die 3 "'nft' is missing (host firewalls): apt-get install nftables"
}

# The caller's optional files (TEST_HOSTS_AUTHORIZED_KEYS, TEST_HOSTS_HOST_KEY,
# TEST_HOSTS_FIREWALL) exist and fit.
check_given_keys() {
    if [ -n "${TEST_HOSTS_AUTHORIZED_KEYS-}" ]; then
        [ -r "$TEST_HOSTS_AUTHORIZED_KEYS" ] ||
            die 2 "TEST_HOSTS_AUTHORIZED_KEYS: cannot read '$TEST_HOSTS_AUTHORIZED_KEYS'"
    fi
    if [ -n "${TEST_HOSTS_HOST_KEY-}" ]; then
        ssh-keygen -y -f "$TEST_HOSTS_HOST_KEY" 2>/dev/null | grep -q '^ssh-ed25519 ' ||
            die 2 "TEST_HOSTS_HOST_KEY: '$TEST_HOSTS_HOST_KEY' is not an ed25519 private key (mode 0600)"
    fi
    if [ -n "${TEST_HOSTS_FIREWALL-}" ]; then
        [ -r "$TEST_HOSTS_FIREWALL" ] ||
            die 2 "TEST_HOSTS_FIREWALL: cannot read '$TEST_HOSTS_FIREWALL'"
        need_nft
    fi
}

# Applies the nftables ruleset in FILE in namespace NS in one transaction, after the table
# "inet lambda" the namespace had is deleted (declaring it first makes the delete safe when there
# is none): no moment without a firewall and none with two.
apply_firewall() { # NS FILE
    out=$({ printf 'table inet lambda\ndelete table inet lambda\n'; cat "$2"; } |
        ip netns exec "$1" nft -f - 2>&1) || die 1 "nft refused the ruleset for $1: $out"
}

# The base64 key of a public key file (its second field).
key_blob() { # PUBFILE
    cut -d' ' -f2 "$1"
}

# A bare root for a host's sessions (TEST_HOSTS_BARE): BusyBox's programs and a few /etc files.
bare_root() { # ROOT HOSTSFILE
    r=$1
    mkdir -p "$r/bin" "$r/root" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/etc" \
        "$r/usr/share/datasets"
    cp /bin/busybox "$r/bin/busybox"
    for applet in $(/bin/busybox --list); do
        [ "$applet" = busybox ] || ln -sf busybox "$r/bin/$applet"
    done
    echo 'root:x:0:0:root:/root:/bin/sh' >"$r/etc/passwd"
    echo 'root:x:0:' >"$r/etc/group"
    printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$r/etc/nsswitch.conf"
    cp "$2" "$r/etc/hosts"
    printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$r/etc/resolv.conf"
    if [ -n "${TEST_HOSTS_NVIDIA_SMI-}" ]; then
        cp "$TEST_HOSTS_NVIDIA_SMI" "$r/bin/nvidia-smi"
        chmod 755 "$r/bin/nvidia-smi"
    fi
    # The sanitizer options the sessions get (SetEnv below) name suppression files by their path
    # here; a sanitized program refuses to start without them, so they are copied to that path.
    for opts in "${ASAN_OPTIONS-}" "${LSAN_OPTIONS-}" "${TSAN_OPTIONS-}" "${UBSAN_OPTIONS-}"; do
        for supp in $(printf '%s\n' "$opts" | tr ':' '\n' | sed -n 's/^suppressions=//p'); do
            if [ -f "$supp" ]; then
                mkdir -p "$r$(dirname "$supp")"
                cp "$supp" "$r$supp"
            fi
        done
    done
}

# The host key of a host's sshd: the caller's (TEST_HOSTS_HOST_KEY) or a fresh one.
host_key() { # HOSTDIR NS
    if [ -n "${TEST_HOSTS_HOST_KEY-}" ]; then
        (umask 077 && cp "$TEST_HOSTS_HOST_KEY" "$1/ssh_host_ed25519_key")
        if [ -r "$TEST_HOSTS_HOST_KEY.pub" ]; then
            cp "$TEST_HOSTS_HOST_KEY.pub" "$1/ssh_host_ed25519_key.pub"
        else
            ssh-keygen -y -f "$1/ssh_host_ed25519_key" >"$1/ssh_host_ed25519_key.pub"
        fi
    else
        ssh-keygen -q -t ed25519 -N '' -C "$2" -f "$1/ssh_host_ed25519_key"
    fi
}

# The first free subnet 198.18.K.0/24 (K 1..250): the bridge tsbK is the lock; its creation fails
# when another run holds K.
claim_subnet() {
    k=1
    while [ "$k" -le 250 ]; do
        if ip link add "tsb$k" type bridge 2>/dev/null; then
            echo "$k"
            return 0
        fi
        k=$((k + 1))
    done
    die 1 "no free 198.18.K.0/24 subnet (bridges tsb1..tsb250 all exist)"
}

up_host() { # DIR K I
    dir=$1 k=$2 i=$3
    ns="tessera-$k-h$i" addr="198.18.$k.$((10 + i))" h="$dir/h$i"
    mkdir -p "$h"
    ip netns add "$ns"
    ip link add "tv${k}h$i" type veth peer name "tp${k}h$i"
    ip link set "tp${k}h$i" netns "$ns"
    ip link set "tv${k}h$i" master "tsb$k" up
    ip -n "$ns" link set lo up
    ip -n "$ns" link set "tp${k}h$i" name eth0
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" route add default via "198.18.$k.1"
    # The firewall comes before sshd: the host never answers unfiltered.
    if [ -n "${TEST_HOSTS_FIREWALL-}" ]; then
        apply_firewall "$ns" "$TEST_HOSTS_FIREWALL"
    fi
    # Name resolution of a host without a way out: every lookup fails at once instead of
    # waiting for an unreachable name server (mpirun resolves each hostfile name: 40 s per
    # name there); the test hosts know each other by name. `ip netns exec` mounts these over /etc.
    mkdir -p "/etc/netns/$ns"
    printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"/etc/netns/$ns/resolv.conf"
    { echo "127.0.0.1 localhost"; cat "$dir/names"; } >"/etc/netns/$ns/hosts"
    host_key "$h" "$ns"
    # Root's keys on this host: the client key of DIR and the caller's (read for every host).
    cp "$dir/id_ed25519.pub" "$h/authorized_keys"
    if [ -n "${TEST_HOSTS_AUTHORIZED_KEYS-}" ]; then
        cat "$TEST_HOSTS_AUTHORIZED_KEYS" >>"$h/authorized_keys"
    fi
    mounts=
    if [ -n "${TEST_HOSTS_BARE-}" ]; then
        bare_root "$h/root" "/etc/netns/$ns/hosts"
        r=$h/root
        mounts="mount -t proc proc '$r/proc' && mount --rbind /sys '$r/sys' &&
                mount --rbind /dev '$r/dev' && mount -t tmpfs tmpfs '$r/tmp' &&
                { [ ! -d /usr/share/datasets ] ||
                  mount --bind /usr/share/datasets '$r/usr/share/datasets'; } &&"
    fi
    cat >"$h/sshd_config" <<EOF
ListenAddress $addr
HostKey $h/ssh_host_ed25519_key
PidFile $h/sshd.pid
AuthorizedKeysFile $h/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
    # Sessions on a test host get the sanitizer options of the run that made it (presets asan
    # and tsan: report exit code, suppression files), its step holds (TESSERA_HOLD_DIR,
    # tests/support/jobhold.h) and tessera-rank's grace (TESSERA_RANK_GRACE_MS), as the tests'
    # local workers do; sshd would start them with a clean environment. (sshd takes the first SetEnv line only: one line.)
    setenv=
    for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS TESSERA_HOLD_DIR \
        TESSERA_RANK_GRACE_MS; do
        eval "val=\${$v-}"
        if [ -n "$val" ]; then
            setenv="$setenv \"$v=$val\""
        fi
    done
    if [ -n "$setenv" ]; then
        echo "SetEnv$setenv" >>"$h/sshd_config"
    fi
    if [ -n "${TEST_HOSTS_BARE-}" ]; then # sshd runs this with root's shell of this machine
        echo "ForceCommand /usr/sbin/chroot '$h/root' /bin/sh -c \"\$SSH_ORIGINAL_COMMAND\"" \
            >>"$h/sshd_config"
    fi
    echo "$addr $(cut -d' ' -f1,2 "$h/ssh_host_ed25519_key.pub")" >>"$dir/known_hosts"
    echo "th$k-$i $addr $ns" >>"$dir/hosts.txt"
    # A test host is a fresh machine: root's shell start-up of this one is not its own. (A
    # development machine's ~/.bashrc ran pyenv's rehash in every session; a host killed during
    # one left pyenv's lock behind and every later session waited a minute for it.) `ip netns
    # exec` gives the host its own mount namespace, so the bind mount stays there.
    : >"$h/bashrc"
    ip netns exec "$ns" unshare --uts sh -c \
        "if [ -e /root/.bashrc ]; then mount --bind '$h/bashrc' /root/.bashrc; fi && $mounts
         hostname th$k-$i && exec /usr/sbin/sshd -D -e -f '$h/sshd_config'" \
        >"$h/sshd.log" 2>&1 </dev/null &
}

# Until host I answers from here (its sshd's log line comes before the bridge forwards). With a
# firewall (TEST_HOSTS_FIREWALL), which may refuse this namespace, sshd is asked from inside the
# host and the bridge's port to it must be forwarding. Non-zero (and the reason on stderr) when
# it does not within about 10 s.
# (POSIX sh has no local variables: its counter must not be called n or i, which cmd_up loops
# over; with n it once made 'up DIR 1' wait for a second host whenever sshd took two tries.)
wait_listening() { # DIR K I
    addr="198.18.$2.$((10 + $3))" ns="tessera-$2-h$3" tries=0
    while [ "$tries" -lt 100 ]; do
        if [ -n "${TEST_HOSTS_FIREWALL-}" ]; then
            if [ "$(cat "/sys/class/net/tv$2h$3/brport/state" 2>/dev/null)" = 3 ] &&
                ip netns exec "$ns" ssh-keyscan -T 1 -t ed25519 "$addr" 2>/dev/null |
                grep -q ssh-ed25519; then
                return 0
            fi
        elif ssh-keyscan -T 1 -t ed25519 "$addr" 2>/dev/null | grep -q ssh-ed25519; then
            return 0
        fi
        tries=$((tries + 1))
        sleep 0.1
    done
    echo "test-hosts: sshd on $addr did not start: $(tail -n 3 "$1/h$3/sshd.log" 2>/dev/null)" >&2
    return 1
}

cmd_up() { # DIR N
    dir=$1 n=$2
    need
    check_given_keys
    mkdir -p "$dir" /run/sshd
    dir=$(cd "$dir" && pwd)
    [ ! -e "$dir/subnet" ] || die 1 "$dir already holds test hosts: run 'down' first"
    # What an earlier 'up' of DIR (taken down since) left: this one starts afresh, indices too.
    rm -rf "$dir"/h[0-9]*
    rm -f "$dir/id_ed25519" "$dir/id_ed25519.pub" "$dir/names"
    k=$(claim_subnet)
    echo "$k" >"$dir/subnet"
    ip addr add "198.18.$k.1/24" dev "tsb$k"
    ip link set "tsb$k" up
    : >"$dir/known_hosts"
    : >"$dir/hosts.txt"
    ssh-keygen -q -t ed25519 -N '' -C tessera-test-client -f "$dir/id_ed25519"
    cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
    if [ -n "${TEST_HOSTS_AUTHORIZED_KEYS-}" ]; then
        cat "$TEST_HOSTS_AUTHORIZED_KEYS" >>"$dir/authorized_keys"
    fi
    i=1
    : >"$dir/names"
    while [ "$i" -le "$n" ]; do
        echo "198.18.$k.$((10 + i)) th$k-$i" >>"$dir/names"
        i=$((i + 1))
    done
    i=1
    while [ "$i" -le "$n" ]; do
        up_host "$dir" "$k" "$i"
        i=$((i + 1))
    done
    i=1
    while [ "$i" -le "$n" ]; do
        wait_listening "$dir" "$k" "$i" || exit 1
        i=$((i + 1))
    done
    cat "$dir/hosts.txt"
}

# The K of DIR's subnet, or exit 1.
subnet_of() { # DIR
    cat "$1/subnet" 2>/dev/null || die 1 "$1 holds no test hosts: run 'up $1 0' first"
}

cmd_add() { # DIR
    need
    check_given_keys
    [ -d "$1" ] || die 1 "$1 holds no test hosts: run 'up $1 0' first"
    dir=$(cd "$1" && pwd)
    k=$(subnet_of "$dir")
    # The next index: the first hI folder that mkdir makes (atomic, so concurrent adds differ;
    # a removed host keeps its folder, so an index never returns).
    i=1
    while ! mkdir "$dir/h$i" 2>/dev/null; do
        i=$((i + 1))
    done
    [ "$i" -le 244 ] || die 1 "$dir has no address left (198.18.$k.11 .. .254 all handed out)"
    addr="198.18.$k.$((10 + i))"
    trap 'cmd_remove "$dir" "$i"' EXIT # a host half made is taken away again
    echo "$addr th$k-$i" >>"$dir/names"
    # The hosts up so far learn the new name (their /etc/hosts is this file, bind-mounted).
    for f in /etc/netns/tessera-"$k"-h*/hosts; do
        [ ! -f "$f" ] || echo "$addr th$k-$i" >>"$f"
    done
    up_host "$dir" "$k" "$i"
    wait_listening "$dir" "$k" "$i" || exit 1
    trap - EXIT
    echo "th$k-$i $addr tessera-$k-h$i"
}

cmd_remove() { # DIR I
    k=$(subnet_of "$1")
    ns="tessera-$k-h$2"
    kill_ns "$ns"
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
    ip link del "tv${k}h$2" 2>/dev/null || true
}

# The namespace of host I of DIR, or exit 1 when it is not up.
host_ns() { # DIR I
    k=$(subnet_of "$1")
    [ -e "/run/netns/tessera-$k-h$2" ] || die 1 "host $2 of $1 is not up"
    echo "tessera-$k-h$2"
}

cmd_firewall() { # DIR I, the ruleset on stdin
    [ "$(id -u)" = 0 ] || die 3 "needs root (the host's namespace)"
    need_nft
    ns=$(host_ns "$1" "$2")
    f="$1/h$2/firewall.nft"
    cat >"$f.new"
    mv "$f.new" "$f"
    apply_firewall "$ns" "$f"
}

cmd_rekey() { # DIR I KEYFILE
    [ "$(id -u)" = 0 ] || die 3 "needs root (the host's sshd)"
    ssh-keygen -y -f "$3" 2>/dev/null | grep -q '^ssh-ed25519 ' ||
        die 2 "'$3' is not an ed25519 private key (mode 0600)"
    ns=$(host_ns "$1" "$2")
    h="$1/h$2"
    k=$(subnet_of "$1")
    addr="198.18.$k.$((10 + $2))"
    (umask 077 && cp "$3" "$h/ssh_host_ed25519_key.new")
    if [ -r "$3.pub" ]; then
        cp "$3.pub" "$h/ssh_host_ed25519_key.pub.new"
    else
        ssh-keygen -y -f "$3" >"$h/ssh_host_ed25519_key.pub.new"
    fi
    mv "$h/ssh_host_ed25519_key.new" "$h/ssh_host_ed25519_key"
    mv "$h/ssh_host_ed25519_key.pub.new" "$h/ssh_host_ed25519_key.pub"
    blob=$(key_blob "$h/ssh_host_ed25519_key.pub")
    # SIGHUP: OpenSSH's sshd re-executes itself and so reads its host keys again.
    kill -HUP "$(cat "$h/sshd.pid")" 2>/dev/null || die 1 "host $2's sshd does not run"
    n=0
    while [ "$n" -lt 100 ]; do
        if ip netns exec "$ns" ssh-keyscan -T 1 -t ed25519 "$addr" 2>/dev/null |
            grep -qF " $blob"; then
            return 0
        fi
        n=$((n + 1))
        sleep 0.1
    done
    die 1 "sshd on $addr does not answer with the new key: $(tail -n 3 "$h/sshd.log" 2>/dev/null)"
}

kill_ns() { # NS
    ip netns pids "$1" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
}

cmd_kill() { # DIR I
    k=$(subnet_of "$1")
    ip link set "tv${k}h$2" down 2>/dev/null || true
    kill_ns "tessera-$k-h$2"
}

cmd_link() { # DIR I up|down
    k=$(subnet_of "$1")
    ip link set "tv${k}h$2" "$3"
}

cmd_down() { # DIR
    [ -e "$1/subnet" ] || return 0
    k=$(cat "$1/subnet")
    for ns in $(ip netns list | sed -n "s/^\(tessera-$k-h[0-9]*\).*/\1/p"); do
        kill_ns "$ns"
        ip netns del "$ns" 2>/dev/null || true
        rm -rf "/etc/netns/$ns"
    done
    # A killed host's namespace can outlive `netns del` for minutes (its TCP connections, e.g.
    # an ssh master's, linger orphaned behind the downed link) and keep its veth: delete the
    # veths here so that the next run can take the same names.
    for l in $(ip -o link show | sed -n "s/^[0-9]*: \(tv${k}h[0-9]*\)@.*/\1/p"); do
        ip link del "$l" 2>/dev/null || true
    done
    ip link del "tsb$k" 2>/dev/null || true
    rm -f "$1/subnet"
}

# An index or count given on the command line: digits only (it becomes names and addresses).
whole() { # WHAT VALUE
    case "$2" in '' | *[!0-9]*) die 2 "$1 must be a whole number, not '$2'" ;; esac
}

case "${1:-}" in
up) [ $# -eq 3 ] || die 2 "usage: $0 up DIR N"; whole N "$3"; cmd_up "$2" "$3" ;;
add) [ $# -eq 2 ] || die 2 "usage: $0 add DIR"; cmd_add "$2" ;;
remove) [ $# -eq 3 ] || die 2 "usage: $0 remove DIR I"; whole I "$3"; cmd_remove "$2" "$3" ;;
firewall) [ $# -eq 3 ] || die 2 "usage: $0 firewall DIR I <RULESET"; whole I "$3"
    cmd_firewall "$2" "$3" ;;
rekey) [ $# -eq 4 ] || die 2 "usage: $0 rekey DIR I KEYFILE"; whole I "$3"
    cmd_rekey "$2" "$3" "$4" ;;
kill) [ $# -eq 3 ] || die 2 "usage: $0 kill DIR I"; cmd_kill "$2" "$3" ;;
cut) [ $# -eq 3 ] || die 2 "usage: $0 cut DIR I"; cmd_link "$2" "$3" down ;;
mend) [ $# -eq 3 ] || die 2 "usage: $0 mend DIR I"; cmd_link "$2" "$3" up ;;
down) [ $# -eq 2 ] || die 2 "usage: $0 down DIR"; cmd_down "$2" ;;
*) die 2 "usage: $0 up DIR N | add DIR | remove DIR I | kill DIR I | cut DIR I | mend DIR I |
    firewall DIR I | rekey DIR I KEYFILE | down DIR" ;;
esac
