#!/usr/bin/env bash
# Configures a WildFly server folder as the tests' and the benchmark's servers are, offline: the engine's
# and the sample's set-up (wildfly-config/configure.cli), the harness's (harness.cli), any further CLI
# files in order, and the demo users of the console and the sample (each user's password is its name):
#   configure.sh <installation> <server folder> <PostgreSQL driver jar> [more.cli ...]
set -euo pipefail
home=$1 base=$2 driver=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)

cli() {
    "$home/bin/jboss-cli.sh" -Djboss.server.base.dir="$base" "$@"
}

user() {
    "$home/bin/add-user.sh" -a -s -u "$1" -p "$1" -g "$2" -sc "$base/configuration"
}

cli --file="$here/../../wildfly-config/configure.cli" -Dpostgresql.driver="$driver"
cli --file="$here/harness.cli"
for file in "$@"; do
    cli --file="$file"
done
user admin exactly-once-admin
user viewer exactly-once-viewer
user clerk ledger-clerk
