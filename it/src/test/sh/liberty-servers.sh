#!/usr/bin/env bash
# Makes the Liberty test servers from their definitions, then starts some of them:
#   liberty-servers.sh <installation> <template server> <definitions folder> [server to start ...]
# Every <name>.properties in the definitions folder is a test server: a copy of the template server as
# the liberty-maven-plugin made it (server.xml and its configuration, libraries, the harness's EAR, the
# bootstrap properties every test server shares), whose bootstrap properties are the template's and
# then the definition's, a later key overriding an earlier one. The template may be one of them. The
# servers named after the folder start one after another, each once its application has started.
set -euo pipefail
liberty=$1 template=$2 definitions=$3
shift 3
servers=$liberty/usr/servers
application=exactly-once-sample # the harness's EAR, under the sample's name (server.xml)

shared=$(mktemp)
trap 'rm -f "$shared"' EXIT
cp "$servers/$template/bootstrap.properties" "$shared"
for definition in "$definitions"/*.properties; do
    name=$(basename "$definition" .properties)
    if [[ $name != "$template" ]]; then
        rm -rf "${servers:?}/$name"
        cp -a "$servers/$template" "$servers/$name"
        # the template's own state from an earlier run (the build forgets its databases and messages)
        rm -rf "$servers/$name/logs" "$servers/$name/workarea" "$servers/$name/tranlog"
    fi
    cat "$shared" "$definition" > "$servers/$name/bootstrap.properties"
done

for name in "$@"; do
    "$liberty/bin/server" start "$name"
    log=$servers/$name/logs/messages.log
    # CWWKZ0001I: the application started; CWWKZ0002E: it could not start
    for _ in $(seq 360); do
        if grep -q "CWWKZ0001I.* $application " "$log" 2>/dev/null; then
            continue 2
        fi
        if grep -q "CWWKZ0002E.* $application " "$log" 2>/dev/null; then
            break
        fi
        sleep 0.5
    done
    echo "$name did not start $application within 180 s: see $log" >&2
    exit 1
done
