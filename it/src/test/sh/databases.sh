#!/usr/bin/env bash
# Fresh databases for every run of the test servers, with the DDL users run (src/ddl): the engine's
# tables (and the sample's) in PostgreSQL's test and postgres databases and MariaDB's test, dropped
# first; one PostgreSQL database for each WildFly and for it-artemis, created afresh; and the user's
# application's two, owned by its own role orders, with its table ORDERS.
#   databases.sh <src/ddl directory>
set -euo pipefail
ddl=$1

psql_as() { # user, database, psql arguments...
    local user=$1 database=$2
    shift 2
    psql -h 127.0.0.1 -U "$user" -d "$database" -v ON_ERROR_STOP=1 -q "$@"
}

engine_tables="EO_PROCESSED_MESSAGE, EO_PARKED_MESSAGE, EO_CONSUMER, EO_INTERRUPTED_DELIVERY, EO_OUTBOX_MESSAGE, EO_OUTBOX_LEASE, LEDGER_CREDIT"

for database in test postgres; do
    psql_as postgres "$database" -c "DROP TABLE IF EXISTS $engine_tables" -f "$ddl/postgresql.sql"
done
mariadb --protocol=tcp -h 127.0.0.1 -u root test \
    -e "DROP TABLE IF EXISTS $engine_tables; SOURCE $ddl/mariadb.sql;"

own_databases="wildfly wildfly_purge wildfly_artemis liberty_artemis"
for database in $own_databases orders orders_wildfly; do
    psql_as postgres postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
done
psql_as postgres postgres -c "DROP ROLE IF EXISTS orders" -c "CREATE ROLE orders LOGIN"
for database in $own_databases; do
    psql_as postgres postgres -c "CREATE DATABASE $database"
    psql_as postgres "$database" -f "$ddl/postgresql.sql"
done
for database in orders orders_wildfly; do
    psql_as postgres postgres -c "CREATE DATABASE $database OWNER orders"
    psql_as orders "$database" -f "$ddl/postgresql.sql" \
        -c "CREATE TABLE ORDERS (ID BIGSERIAL PRIMARY KEY, DESCRIPTION VARCHAR(200) NOT NULL)"
done
