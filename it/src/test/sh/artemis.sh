#!/usr/bin/env bash
# Starts the tests' standalone Artemis broker in the background, as the build does and as a test does
# after it has crashed the broker, and waits until it accepts connections:
#   artemis.sh <instance directory> <port>
# The instance directory holds the broker's configuration, journal, log (log/console.log) and process ID
# (artemis.pid, which a test's kill -9 reads).
set -euo pipefail
instance=$1 port=$2
mkdir -p "$instance/log"
nohup "$instance/bin/artemis" run > "$instance/log/console.log" 2>&1 < /dev/null &
echo $! > "$instance/artemis.pid"
for _ in $(seq 1 120); do
    if (echo > "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
        exit 0
    fi
    sleep 0.5
done
echo "Artemis did not accept connections on port $port within 60 s: see $instance/log/console.log" >&2
exit 1
