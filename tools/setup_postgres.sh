#!/usr/bin/env bash
# Installs the PostgreSQL server the tests start (tests/pg.py), quietly and only if missing:
# Debian's `postgresql` package through apt-get, as root (or through sudo without a password).
# Without apt, or where it fails, it says so and the PostgreSQL tests skip with that reason.
set -u
for bin in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$bin" ] && exit 0
done
command -v initdb >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup_postgres: no apt-get here; the PostgreSQL tests will skip" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "setup_postgres: not root and no sudo; the PostgreSQL tests will skip" >&2
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
install() { $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null 2>&1; }
if ! install; then
    $SUDO apt-get update -qq >/dev/null 2>&1
    install || echo "setup_postgres: apt-get could not install postgresql; the PostgreSQL tests will skip" >&2
fi
exit 0
