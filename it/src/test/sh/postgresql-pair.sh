#!/usr/bin/env bash
# A PostgreSQL primary and a streaming standby on this machine, on ports of their own, for the
# database failover test (DatabaseFailoverIT, -Ptopologies). Both are clusters of the installed
# PostgreSQL server, run by the postgres user under <dir>; the database test holds the engine's tables.
#   postgresql-pair.sh create <dir> <port a> <port b> <synchronous|asynchronous> <ddl file>
#   postgresql-pair.sh failover <dir>   kill -9 the primary, promote the standby
#   postgresql-pair.sh rejoin <dir>     the old primary, copied afresh, streams from the new one
#   postgresql-pair.sh primary <dir>    the primary's port
#   postgresql-pair.sh destroy <dir>
# With synchronous replication a commit returns once the standby has its log on disk
# (synchronous_standby_names = 'ANY 1 (*)'), so a failover keeps every commit; the promoted standby has
# no standby of its own until rejoin, and so commits alone in between.
set -euo pipefail
command=$1 dir=$(realpath -m "$2")

bin=/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -1)/bin

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

sql() { # port, database, sql
    psql -h 127.0.0.1 -p "$1" -U postgres -d "$2" -v ON_ERROR_STOP=1 -Atq -c "$3"
}

port_of() { cat "$dir/$1.port"; }
primary() { cat "$dir/primary"; }
other() { [ "$1" = a ] && echo b || echo a; }

# shellcheck source=await.sh
. "$(dirname "$0")/await.sh"

streaming() { # port of the primary, sync states accepted
    [ "$(sql "$1" postgres "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state IN ($2)")" -ge 1 ]
}

start() { # cluster
    as_postgres "$bin/pg_ctl" -D "$dir/$1" -l "$dir/$1.log" -w -t 60 start >/dev/null
}

# Copies the primary into <cluster>, which then streams from it: the standby's own settings keep no
# synchronous standby names, so that, once promoted, it does not wait for a standby it does not have.
make_standby() { # cluster
    local cluster=$1 from
    from=$(port_of "$(primary)")
    rm -rf "${dir:?}/$cluster"
    as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$from" -U postgres -D "$dir/$cluster" -R -X stream -c fast
    as_postgres sed -i '/^synchronous_standby_names/d' "$dir/$cluster/postgresql.auto.conf"
    echo "port = $(port_of "$cluster")" | as_postgres tee -a "$dir/$cluster/postgresql.conf" >/dev/null
    start "$cluster"
    await "the standby streaming" streaming "$from" "'async', 'potential', 'sync', 'quorum'"
    if [ "$(cat "$dir/mode")" = synchronous ]; then
        sql "$from" postgres "ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (*)'"
        sql "$from" postgres "SELECT pg_reload_conf()" >/dev/null
        await "the standby synchronous" streaming "$from" "'sync', 'quorum'"
    fi
}

# Kills the cluster's processes with SIGKILL, as a crash of its host would, and removes the socket's
# lock file they leave: a killed postmaster that nobody reaps stays a zombie, which PostgreSQL would take
# for a postmaster still running on that port.
kill_cluster() { # cluster
    local pid
    [ -f "$dir/$1.port" ] || return 0
    if [ -f "$dir/$1/postmaster.pid" ]; then
        pid=$(head -1 "$dir/$1/postmaster.pid")
        kill -9 "$pid" $(pgrep -P "$pid" || true) 2>/dev/null || true
    fi
    rm -f "$dir/.s.PGSQL.$(port_of "$1")" "$dir/.s.PGSQL.$(port_of "$1").lock"
}

case $command in
create)
    port_a=$3 port_b=$4 mode=$5 ddl=$6
    [[ $mode == synchronous || $mode == asynchronous ]] || { echo "mode: synchronous or asynchronous" >&2; exit 2; }
    "$0" destroy "$dir"
    mkdir -p "$dir"
    chown postgres "$dir" 2>/dev/null || true
    echo "$port_a" > "$dir/a.port"
    echo "$port_b" > "$dir/b.port"
    echo "$mode" > "$dir/mode"
    echo a > "$dir/primary"
    as_postgres "$bin/initdb" -D "$dir/a" -U postgres -A trust -N >/dev/null
    as_postgres tee -a "$dir/a/postgresql.conf" >/dev/null <<EOF
port = $port_a
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
wal_level = replica
max_wal_senders = 4
wal_keep_size = 256MB
hot_standby = on
shared_buffers = 32MB
max_connections = 60
EOF
    start a
    sql "$port_a" postgres "CREATE DATABASE test"
    psql -h 127.0.0.1 -p "$port_a" -U postgres -d test -v ON_ERROR_STOP=1 -q -f "$ddl"
    make_standby b
    echo "postgresql-pair: primary on $port_a, $mode standby on $port_b"
    ;;
failover)
    old=$(primary) new=$(other "$(primary)")
    kill_cluster "$old"
    as_postgres "$bin/pg_ctl" -D "$dir/$new" -w -t 60 promote >/dev/null
    echo "$new" > "$dir/primary"
    echo "postgresql-pair: killed the primary on $(port_of "$old"), promoted $(port_of "$new")"
    ;;
rejoin)
    make_standby "$(other "$(primary)")"
    echo "postgresql-pair: $(port_of "$(other "$(primary)")") streams from $(port_of "$(primary)") again"
    ;;
primary)
    port_of "$(primary)"
    ;;
destroy)
    for cluster in a b; do
        kill_cluster "$cluster"
    done
    rm -rf "${dir:?}"
    ;;
*)
    echo "unknown command: $command" >&2
    exit 2
    ;;
esac
