#!/usr/bin/env bash
# Makes the Liberty test servers from their definitions, then starts some of them:
#   liberty-servers.sh <installation> <template server> <definitions folder> [server to start ...]
# Every <name>.properties in the definitions folder is a test server: a copy of the template server as
# the liberty-maven-plugin made it (server.xml and its configuration, libraries, the harness's EAR, the
# bootstrap properties every test server shares), whose bootstrap properties are the template's and
# then the definition's, a later key overriding an earlier one. The template may be one of them. The
# servers named after the folder start together; the script returns once each one's application has
# started.
set -euo pipefail
liberty=$1 template=$2 definitions=$3
shift 3
servers=$liberty/usr/servers
application=exactly-once-sample # the harness's EAR, under the sample's name (server.xml)

own="# the server's own (liberty-servers.sh)"
shared=$(mktemp) starts=$(mktemp -d)
trap 'rm -rf "$shared" "$starts"' EXIT
# the plugin's properties, without what an earlier run of this script added to the template's
sed "/^$own/,\$d" "$servers/$template/bootstrap.properties" > "$shared"
for definition in "$definitions"/*.properties; do
    name=$(basename "$definition" .properties)
    if [[ $name != "$template" ]]; then
        rm -rf "${servers:?}/$name"
        cp -a "$servers/$template" "$servers/$name"
        # none of the template's state from an earlier run
        (cd "$servers/$name" && rm -rf logs workarea tranlog databases messaging/messageStore fault-injection)
    fi
    { cat "$shared"; echo "$own"; cat "$definition"; } > "$servers/$name/bootstrap.properties"
done

# Waits until the server's application has started; fails with its log's name when it could not.
await_application() {
    local log=$servers/$1/logs/messages.log
    # CWWKZ0001I: the application started; CWWKZ0002E: it could not start
    for _ in $(seq 360); do
        if grep -q "CWWKZ0001I.* $application " "$log" 2>/dev/null; then
            return 0
        fi
        if grep -qE "CWWKZ0002E.* $application[ .]" "$log" 2>/dev/null; then
            break
        fi
        sleep 0.5
    done
    echo "$1 did not start $application within 180 s: see $log" >&2
    return 1
}

# Starts the servers together (one after another took three and a half minutes for eight on two
# cores), then waits for each one's application. A server that reads another's messaging engine starts
# once the others are up, so that the engine it connects to is there.
start_together() {
    for name in "$@"; do
        "$liberty/bin/server" start "$name" > "$starts/$name" 2>&1 &
    done
    wait # each start returns once its server's process runs; the applications come after
    for name in "$@"; do
        cat "$starts/$name"
        await_application "$name"
    done
}

own_engine=() remote_engine=()
for name in "$@"; do
    if grep -qx "messaging=remote" "$definitions/$name.properties" 2>/dev/null; then
        remote_engine+=("$name")
    else
        own_engine+=("$name")
    fi
done
start_together "${own_engine[@]}"
if ((${#remote_engine[@]})); then
    start_together "${remote_engine[@]}"
fi
