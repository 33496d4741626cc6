"""Several RecEval Lab processes behind nginx on this machine: one command starts them, one stops them.

    python deploy/serve.py run --apps 2 --port 8080      # foreground; Ctrl-C stops everything
    python deploy/serve.py start --apps 2 --port 8080    # background; pids in the run folder (below)
    python deploy/serve.py stop                          # stops what `start` started

Each app is ``streamlit run app.py`` on its own loopback port, started by ``deploy/warm.py`` so that
the first visitor after a start waits for no import. nginx (Debian's ``nginx-light``)
listens on ``--port``, keeps each browser on one app by a cookie (a whole classroom behind one
NAT shares one IP address, so hashing the source address would put them all on one process),
passes the WebSocket through, and serves Streamlit's static files itself from a copy gzipped
once (Streamlit serves ``/static`` uncompressed on purpose and leaves that to the proxy). The
configuration is ``deploy/nginx.conf``; this script fills in ports and paths.

nginx's files (its configuration, temporary files and the static copy) live in a run folder outside
the checkout, ``$TMPDIR/receval-serve-<uid>`` (mode 0755): started as root, nginx's workers run as
``nobody`` and must enter every folder above what they serve, which a checkout under a private home
(0700) does not allow. When they could not, the layout refuses before starting anything and says why.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import importlib.util
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
# pid files, nginx's generated config, the static copy and logs: per user, outside the checkout (see above)
RUN = Path(tempfile.gettempdir()) / f"receval-serve-{os.getuid()}"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LIBDEFLATE = shutil.which("libdeflate-gzip")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, process: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer in {timeout}s: {log.read_text()[-2000:]}")


class AppProcess:
    """``streamlit run app.py`` (by ``deploy.warm``) on a loopback port; ``ready_seconds`` is its cold start."""

    def __init__(self, port: int | None = None, name: str = "app", log_dir: Path = RUN, extra: tuple[str, ...] = ()):
        self.port = port or free_port()
        self.name = name
        self.url = f"http://127.0.0.1:{self.port}"
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / f"{name}.log"
        self.extra = extra
        self.process: subprocess.Popen | None = None
        self.ready_seconds = float("nan")

    @property
    def pid(self) -> int:
        return self.process.pid

    def start(self) -> "AppProcess":
        env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
        started = time.perf_counter()
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(  # noqa: S603
                [sys.executable, "-m", "deploy.warm", "--server.port", str(self.port),
                 "--server.address", "127.0.0.1", "--server.headless", "true",
                 "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *self.extra],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
            )
        self._started_at = started
        return self

    def wait_ready(self, timeout: float = 60) -> float:
        _wait_http(f"{self.url}/_stcore/health", self.process, self.log_path, timeout)
        self.ready_seconds = time.perf_counter() - self._started_at
        return self.ready_seconds

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


COMPRESSIBLE = (".js", ".css", ".html", ".json", ".svg", ".txt", ".ttf", ".wasm")


def open_run_dir(path: Path = RUN) -> Path:
    """``path`` made (mode 0755) or reused if it is this user's own folder; anything else is refused, so
    no other user of a shared /tmp can hand nginx a folder (or a symlink) of theirs."""
    path.mkdir(mode=0o755, parents=True, exist_ok=True)
    found = path.lstat()
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        raise RuntimeError(f"{path} is not a folder of this user's: remove it or set TMPDIR to another folder.")
    path.chmod(0o755)
    return path


def check_nginx_can_enter(*paths: Path) -> None:
    """Refuse, before anything starts, when nginx's workers could not reach these folders.

    Started as root, nginx runs its workers as ``nobody``: every folder from / down must let others
    in (the x bit), or every static file is a 403 and the app never loads.
    """
    if os.geteuid() != 0:
        return  # the workers run as this same user
    for path in paths:
        for folder in [path, *path.parents]:
            mode = folder.stat().st_mode
            if not mode & stat.S_IXOTH:
                raise RuntimeError(
                    f"nginx's workers (user nobody) cannot enter {folder} (mode {stat.filemode(mode)}), so they "
                    f"could not serve {path}. Set TMPDIR to a folder every user can enter (e.g. /tmp), or "
                    f"chmod o+x {folder}.")


def prepare_static(run_dir: Path = RUN) -> Path:
    """A copy of Streamlit's frontend bundle with a ``.gz`` beside every compressible file.

    Made once per Streamlit version (the files are content-hashed); source maps are left out,
    browsers fetch them only when developer tools are open.
    """
    source = Path(importlib.util.find_spec("streamlit").origin).parent / "static"
    target = run_dir / f"static-{importlib.metadata.version('streamlit')}"
    if (target / ".complete").exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.map"))
    files = [p for p in target.rglob("*") if p.suffix in COMPRESSIBLE and p.stat().st_size > 1024]
    if LIBDEFLATE:
        # libdeflate's level 12 is about 4% smaller than gzip -9 and still fast.
        for start in range(0, len(files), 200):
            subprocess.run([LIBDEFLATE, "-12", "-k", *map(str, files[start:start + 200])], check=True)  # noqa: S603
    else:
        for path in files:
            path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), 9, mtime=0))
    (target / ".complete").write_text("")
    return target


def nginx_config(run_dir: Path, port: int, apps: list[AppProcess], static_root: Path) -> str:
    """deploy/nginx.conf with the run directory, the port, the static copy and one upstream per app."""
    share = 100 / len(apps)
    split = [f"        {share:.2f}% {a.name};" for a in apps[:-1]] + [f"        * {apps[-1].name};"]
    upstreams = "\n\n".join(
        f"    upstream {a.name} {{\n        server 127.0.0.1:{a.port};\n        keepalive 8;\n    }}" for a in apps)
    text = (DEPLOY / "nginx.conf").read_text()
    for name, value in (("@RUN@", run_dir), ("@PORT@", port), ("@STATIC_ROOT@", static_root),
                        ("@SPLIT@", "\n".join(split)),
                        ("@KNOWN@", "\n".join(f"        {a.name} {a.name};" for a in apps)),
                        ("@KNOWN_EMPTY@", "\n".join(f'        {a.name} "";' for a in apps)),
                        ("@UPSTREAMS@", upstreams)):
        text = text.replace(name, str(value))
    return text


class Layout:
    """N app processes and nginx in front of them; a context manager that stops all of them."""

    def __init__(self, apps: int = 2, port: int | None = None, run_dir: Path = RUN, extra: tuple[str, ...] = (),
                 nginx_dir: Path = RUN):
        """``run_dir`` holds the apps' logs; ``nginx_dir`` what nginx's workers read (see the module's doc)."""
        if not Path(NGINX).exists():
            raise RuntimeError("nginx is not installed (apt-get install nginx-light libdeflate-tools); .ci/run installs it")
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.run_dir = run_dir
        self.nginx_dir = nginx_dir
        self.apps = [AppProcess(name=f"app{i + 1}", log_dir=run_dir, extra=extra) for i in range(apps)]
        self.proxy: subprocess.Popen | None = None

    @property
    def app_pids(self) -> list[int]:
        return [a.pid for a in self.apps]

    def start(self) -> "Layout":
        proxy_dir = open_run_dir(self.nginx_dir) / f"nginx-{self.port}"
        check_nginx_can_enter(self.nginx_dir)
        try:
            # Shared by every layout (made once); nginx's workers (user nobody) must be able to read it.
            static_root = prepare_static(self.nginx_dir)
            for app in self.apps:
                app.start()
            for app in self.apps:
                app.wait_ready()
            (proxy_dir / "tmp").mkdir(mode=0o755, parents=True, exist_ok=True)
            config = proxy_dir / "nginx.conf"
            config.write_text(nginx_config(proxy_dir, self.port, self.apps, static_root))
            log = proxy_dir / "nginx.log"
            with log.open("w") as out:
                # The config says "daemon off", so this object owns the nginx master process.
                self.proxy = subprocess.Popen([NGINX, "-e", str(proxy_dir / "nginx-error.log"), "-c", str(config)],  # noqa: S603
                                              stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            _wait_http(f"{self.url}/_stcore/health", self.proxy, log, 30)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.proxy and self.proxy.poll() is None:
            self.proxy.terminate()  # nginx: SIGTERM is a fast shutdown of master and workers
            try:
                self.proxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proxy.kill()
        for app in self.apps:
            app.stop()

    def __enter__(self) -> "Layout":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _alive(pid: int) -> bool:
    """Running, and not a zombie (a background start's processes are nobody's children)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _pids_file() -> Path:
    return open_run_dir() / "pids"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("run", "start", "stop"))
    parser.add_argument("--apps", type=int, default=2, help="number of Streamlit processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="port nginx listens on, loopback (default 8080)")
    args = parser.parse_args()

    if args.command == "stop":
        if not _pids_file().exists():
            print("nothing started by `deploy/serve.py start`")
            return
        pids = [int(pid) for pid in _pids_file().read_text().split()]
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
            time.sleep(0.1)
        for pid in filter(_alive, pids):
            _signal(pid, signal.SIGKILL)
        _pids_file().unlink()
        print("stopped")
        return

    layout = Layout(args.apps, args.port).start()
    print(f"RecEval Lab on {layout.url} ({args.apps} app processes: "
          + ", ".join(f"{a.name} :{a.port}" for a in layout.apps) + ")")
    if args.command == "start":
        _pids_file().write_text(" ".join(map(str, [layout.proxy.pid, *layout.app_pids])))
        print("stop with: python deploy/serve.py stop")
        return
    try:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while all(p.poll() is None for p in [layout.proxy, *(a.process for a in layout.apps)]):
            time.sleep(1)
        print("a process exited; stopping the others", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        layout.stop()


if __name__ == "__main__":
    main()
