"""A private PostgreSQL cluster in a temporary directory, on a loopback port of its own.

    python deploy/postgres.py start DIR     # prints the connection URL; the cluster runs until `stop`
    python deploy/postgres.py stop DIR

Debian's PostgreSQL keeps its programs in /usr/lib/postgresql/<version>/bin (not on PATH), and
``initdb`` refuses to run as root: as root the cluster belongs to the ``postgres`` user. The tests
(tests/conftest.py), the live-class benchmark and ``.ci/run`` all start it this way.
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
from pathlib import Path


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def start(directory: Path, port: int | None = None) -> str:
    """initdb + pg_ctl start; returns ``postgresql://postgres@127.0.0.1:PORT/postgres``."""
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    port = port or _free_port()
    directory.mkdir(parents=True, exist_ok=True)
    data = directory / "data"
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    subprocess.run(_as_owner([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-E", "UTF8",
                              "--locale=C", "-U", "postgres"]), **quiet)
    options = f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                              str(directory / "server.log"), "-w", "start"]), **quiet)
    return f"postgresql://postgres@127.0.0.1:{port}/postgres"


def stop(directory: Path) -> None:
    bin_dir = binaries()
    data = directory / "data"
    if bin_dir and (data / "postmaster.pid").exists():
        subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("start", "stop"))
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    try:
        if args.action == "start":
            print(start(args.directory.resolve(), args.port))
        else:
            stop(args.directory.resolve())
    except (RuntimeError, subprocess.CalledProcessError) as problem:
        detail = getattr(problem, "stderr", b"") or b""
        print(f"PostgreSQL: {problem} {detail.decode(errors='replace')}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
