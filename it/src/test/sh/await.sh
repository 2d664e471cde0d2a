# Sourced by the scripts that start databases: await <what> <command...> runs the command every half
# second until it succeeds, for up to 60 s, then fails naming what did not happen.
await() {
    local what=$1
    shift
    for _ in $(seq 1 120); do
        if "$@" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.5
    done
    echo "$(basename "$0"): $what did not happen within 60 s" >&2
    return 1
}
