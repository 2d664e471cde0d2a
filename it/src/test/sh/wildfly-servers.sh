#!/usr/bin/env bash
# Makes the tests' four WildFly servers from one unpacked installation, starts them, and returns once
# each has deployed its application:
#   wildfly-servers.sh <project root> <folder> <core's start> <purge's start> <Artemis one's start> <user's start>
# The folder holds the installation (the first start argument), the PostgreSQL driver (driver/) and the
# user's applications (orders-apps/). Each start is the arguments of wildfly.sh in one word, the second
# being the server's base directory: the core's is the installation's standalone/, configured as users
# configure theirs (harness/wildfly/configure.sh) with the sample's EAR in its deployments; the others
# are copies of it under the folder:
#   purge/    the same, with its own data, logs and ports
#   artemis/  its beans consume from the standalone Artemis broker (wildfly-config/standalone-artemis.cli)
#   orders/   a user's: the user's queue and operator (orders/wildfly/orders.cli), the user's EAR and the
#             tests' sender instead of the sample
set -euo pipefail
root=$1 folder=$2
starts=("$3" "$4" "$5" "$6")
here=$(cd "$(dirname "$0")" && pwd)
read -r home core _ <<< "$3"
read -r _ purge _ <<< "$4"
read -r _ artemis _ <<< "$5"
read -r _ orders _ <<< "$6"

cli() {
    "$home/bin/jboss-cli.sh" -Djboss.server.base.dir="$1" --file="$2"
}

bash "$root/harness/wildfly/configure.sh" "$home" "$core" "$folder/driver/postgresql.jar"
for copy in "$purge" "$artemis" "$orders"; do
    rm -rf "$copy"
    cp -a "$core" "$copy"
done
cli "$artemis" "$root/wildfly-config/standalone-artemis.cli"
cli "$artemis" "$root/harness/wildfly/harness-artemis.cli"
rm -f "$orders"/deployments/exactly-once-sample.ear*
cp "$folder"/orders-apps/* "$orders/deployments/"
cli "$orders" "$root/orders/wildfly/orders.cli"
"$home/bin/add-user.sh" -a -s -u operator -p operator -g exactly-once-admin -sc "$orders/configuration"

for start in "${starts[@]}"; do
    read -ra arguments <<< "$start" # one word per argument of wildfly.sh
    bash "$here/wildfly.sh" "${arguments[@]}"
done

# Waits until the server has deployed the application (the scanner's .deployed marker); fails, naming
# the server's log, when it could not or did not within 180 s.
await_deployment() {
    local deployments=$1/deployments ear=$2
    for _ in $(seq 360); do
        if [[ -e $deployments/$ear.deployed ]]; then
            return 0
        fi
        if [[ -e $deployments/$ear.failed ]]; then
            echo "WildFly could not deploy $ear: see $1/log/server.log" >&2
            return 1
        fi
        sleep 0.5
    done
    echo "WildFly did not deploy $ear within 180 s: see $1/log/server.log" >&2
    return 1
}

for base in "$core" "$purge" "$artemis"; do
    await_deployment "$base" exactly-once-sample.ear
done
await_deployment "$orders" orders.ear
