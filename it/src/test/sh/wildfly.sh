#!/usr/bin/env bash
# Starts one of the tests' WildFly servers in the background, as the build does and as a test does after
# it has crashed the server:
#   wildfly.sh <installation> <base directory> <port offset> <PostgreSQL database> [-Dname=value ...]
# The base directory holds the server's configuration, deployments, logs, fault-injection markers and
# process ID (wildfly.pid, which the tests' kill -9 reads).
set -euo pipefail
home=$1 base=$2 offset=$3 database=$4
shift 4
mkdir -p "$base/log"
# standalone.conf's JVM options, with C1 alone: a test server starts and restarts many times on 2 cores
# (the Liberty test servers' jvm.options say the same)
export JAVA_OPTS="-Xms64m -Xmx512m -Djava.net.preferIPv4Stack=true -Djboss.modules.system.pkgs=org.jboss.byteman"\
" -Djava.awt.headless=true -XX:TieredStopAtLevel=1"
JBOSS_PIDFILE="$base/wildfly.pid" LAUNCH_JBOSS_IN_BACKGROUND=true nohup "$home/bin/standalone.sh" \
    -c standalone-full.xml \
    -Djboss.server.base.dir="$base" \
    -Djboss.socket.binding.port-offset="$offset" \
    -Dpostgresql.database="$database" \
    -Dledger.fault-injection.enabled=true \
    -Dledger.fault-injection.marker-dir="$base/fault-injection" \
    "$@" > "$base/log/console.log" 2>&1 < /dev/null &
