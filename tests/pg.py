"""A real PostgreSQL server for tests and benchmarks: initdb in a temporary folder, started
with pg_ctl on a free 127.0.0.1 port (its socket in that folder), stopped and deleted after.

The binaries are Debian's (`apt-get install postgresql`, found in /usr/lib/postgresql/N/bin),
or those named by RAIL_PG_BIN, or pg_ctl on the PATH. PostgreSQL refuses to run as root: as
root, the server runs as the `postgres` user (else `nobody`) through runuser.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "rail"  # the database superuser initdb creates (trust authentication, local only)


def find_bindir() -> Path | None:
    named = os.environ.get("RAIL_PG_BIN")
    if named:  # only there
        ok = all((Path(named) / b).is_file() for b in ("initdb", "pg_ctl", "postgres"))
        return Path(named) if ok else None
    candidates = [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                           key=lambda p: int(Path(p).parent.name)
                                           if Path(p).parent.name.isdigit() else 0,
                                           reverse=True)]
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for c in candidates:
        if (c / "initdb").is_file() and (c / "pg_ctl").is_file() and (c / "postgres").is_file():
            return c
    return None


def why_unavailable() -> str | None:
    """None if a server can be started here, else why not."""
    if find_bindir() is None:
        return ("no PostgreSQL binaries (initdb, pg_ctl, postgres) in "
                f"{os.environ.get('RAIL_PG_BIN') or '/usr/lib/postgresql/*/bin or the PATH'}: "
                "apt-get install postgresql (tools/setup_postgres.sh), or set RAIL_PG_BIN")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _run_as() is None):
        return "running as root without runuser or a postgres/nobody user to run the server"
    return None


def _run_as() -> str | None:
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, bindir: Path | None = None) -> None:
        found = bindir or find_bindir()
        if found is None:
            raise RuntimeError(why_unavailable() or "no PostgreSQL binaries")
        self.bindir = found
        self.dir = Path(tempfile.mkdtemp(prefix="rail-pg-"))
        self.port = _free_port()
        self._user: str | None = _run_as() if os.geteuid() == 0 else None
        self._dbs = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self._user is not None:
            cmd = ["runuser", "-u", self._user, "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120)

    def start(self) -> PgServer:
        if self._user is not None:
            info = pwd.getpwnam(self._user)
            os.chown(self.dir, info.pw_uid, info.pw_gid)
        data = self.dir / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        # a test server: durability off (fsync), small, on loopback only
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                " -c shared_buffers=32MB")
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts,
                      "-l", str(self.dir / "server.log"), "-w", "-t", "60", "start")
        except subprocess.CalledProcessError as err:
            log = (self.dir / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"PostgreSQL did not start: {err.stderr}\n{log}") from err
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; returns its URL."""
        self._dbs += 1
        name = name or f"t{os.getpid()}_{self._dbs}"
        self._run(str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", USER, name)
        return self.url(name)

    def drop_database(self, name: str) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bindir / "dropdb"), "-h", "127.0.0.1", "-p", str(self.port),
                      "-U", USER, "--force", name)

    def psql(self, dbname: str, sql: str) -> str:
        return self._run(str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port),
                         "-U", USER, "-d", dbname, "-At", "-c", sql).stdout

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast",
                      "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
