#!/usr/bin/env bash
# What the integration tests need on this machine, brought up before the test servers start (the it
# module runs it in package, so `./mvnw verify` needs nothing else): PostgreSQL on 127.0.0.1:5432 and
# MariaDB on 127.0.0.1:3306 started when they are installed but down, their command-line clients (which
# databases.sh uses) and Debian's Chromium with its ChromeDriver installed when missing, for the
# console's browser test. Installing needs root or password-less sudo; without either, it says what to
# install and fails.
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        echo "prepare-machine: need root to run: $*" >&2
        return 1
    fi
}

# shellcheck source=await.sh
. "$(dirname "$0")/await.sh"

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "prepare-machine: starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
    await PostgreSQL pg_isready -q -h 127.0.0.1 -p 5432
fi

if ! mariadb-admin --protocol=tcp -h 127.0.0.1 -u root ping >/dev/null 2>&1; then
    echo "prepare-machine: starting MariaDB"
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    await MariaDB mariadb-admin --protocol=tcp -h 127.0.0.1 -u root ping
fi

missing_clients=()
command -v psql >/dev/null || missing_clients+=(postgresql-client)
command -v mariadb >/dev/null || missing_clients+=(mariadb-client)
if [ ${#missing_clients[@]} -gt 0 ]; then
    echo "prepare-machine: installing ${missing_clients[*]} for the tests' fresh databases (databases.sh)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing_clients[@]}"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "prepare-machine: installing Debian's chromium and chromium-driver for the browser test"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi
