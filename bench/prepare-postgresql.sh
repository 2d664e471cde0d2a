#!/usr/bin/env bash
# Prepares PostgreSQL (127.0.0.1:5432, user postgres) for the benchmark: a fresh database "bench" with
# the DDL given as $1, and prepared transactions, which XA's two-phase commit needs. Enabling them
# restarts the server; PG_RESTART overrides the command (Debian's cluster tools by default).
set -euo pipefail
psql=(psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qtA)

if [ "$("${psql[@]}" -d postgres -c 'SHOW max_prepared_transactions')" = 0 ]; then
    echo "bench: enabling prepared transactions (max_prepared_transactions=20), restarting PostgreSQL"
    "${psql[@]}" -d postgres -c 'ALTER SYSTEM SET max_prepared_transactions = 20'
    ${PG_RESTART:-pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main restart}
    until pg_isready -q -h 127.0.0.1 -p 5432; do sleep 1; done
fi
"${psql[@]}" -d postgres -c 'DROP DATABASE IF EXISTS bench WITH (FORCE)' -c 'CREATE DATABASE bench'
"${psql[@]}" -d bench -f "$1"
