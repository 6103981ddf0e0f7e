"""Install, start, stop and inspect a local Neo4j 5.26 Community server without Docker.

The server is assembled from Maven Central jars (there is no tarball on Maven Central) and run
with ``java`` directly, in a home directory outside the checkout so the ~140 MB of jars are
downloaded once.  Standard library only: the CLI and the test fixtures build on this module.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from beliefgraph.launcher.home import (
    HOME_SUBDIRS,
    INSTALLED_MARKER,
    JVM_OPTIONS,
    LOG_TAIL_LINES,
    MAIN_CLASS,
    MAVEN_TIMEOUT_S,
    MIN_JAVA,
    NEO4J_VERSION,
    PID_FILE_NAME,
    POM_XML,
    LauncherError,
    ServerStatus,
    conf_ports,
    cpu_seconds,
    default_home,
    http_ok,
    is_our_server,
    java_major_version,
    pid_alive,
    port_open,
    render_conf,
    tail,
)


class Neo4jLauncher:
    """Installs and runs one Neo4j server in ``home``; the pid file there is the source of truth.

    Several launcher objects (or processes) may point at the same home; they agree through
    ``<home>/run/beliefgraph-neo4j.pid``.
    """

    def __init__(
        self,
        home: Path | None = None,
        bolt_port: int = 7687,
        http_port: int = 7474,
        java: str | None = None,
    ) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.java = java
        self._proc: subprocess.Popen[bytes] | None = None

    # -- paths ---------------------------------------------------------------------------

    @property
    def lib_dir(self) -> Path:
        """Return the directory of the server's jars."""
        return self.home / "lib"

    @property
    def conf_path(self) -> Path:
        """Return the path of the server's neo4j.conf."""
        return self.home / "conf" / "neo4j.conf"

    @property
    def pid_path(self) -> Path:
        """Return the path of the pid file written by start()."""
        return self.home / "run" / PID_FILE_NAME

    @property
    def console_log(self) -> Path:
        """Return the path that receives the server's stdout and stderr."""
        return self.home / "logs" / "console.log"

    # -- install -------------------------------------------------------------------------

    def is_installed(self) -> bool:
        """Return whether the jars have been downloaded completely into ``<home>/lib``."""
        return (self.lib_dir / INSTALLED_MARKER).is_file()

    def ensure_installed(self) -> None:
        """Download the jars if needed, create the home layout and write neo4j.conf.

        The conf of a running server is left alone, so a launcher with other ports cannot
        make it disagree with the process that uses it.

        Raises:
            LauncherError: if Maven is missing or fails.
        """
        self.home.mkdir(parents=True, exist_ok=True)
        for sub in HOME_SUBDIRS:
            (self.home / sub).mkdir(exist_ok=True)
        if not self.is_installed():
            self._download_jars()
        if self._running_pid() is None:
            self.conf_path.write_text(render_conf(self.bolt_port, self.http_port), encoding="utf-8")

    def _download_jars(self) -> None:
        mvn = shutil.which("mvn")
        if mvn is None:
            raise LauncherError(
                "Maven (`mvn`) is not on PATH; it is needed once to download the Neo4j "
                f"{NEO4J_VERSION} jars from Maven Central into {self.lib_dir}"
            )
        pom = self.home / "pom.xml"
        pom.write_text(POM_XML, encoding="utf-8")
        self.lib_dir.mkdir(exist_ok=True)
        command = [
            mvn,
            "-B",
            "-q",
            "-f",
            str(pom),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={self.lib_dir}",
            "-DincludeScope=runtime",
        ]
        try:
            result = subprocess.run(  # noqa: S603 -- fixed argv, no shell
                command,
                cwd=self.home,
                capture_output=True,
                text=True,
                timeout=MAVEN_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise LauncherError(f"running Maven failed: {exc}") from exc
        jars = list(self.lib_dir.glob("*.jar"))
        if result.returncode != 0 or not jars:
            output = "\n".join((result.stdout + result.stderr).splitlines()[-LOG_TAIL_LINES:])
            raise LauncherError(
                f"Maven could not download the Neo4j jars (exit {result.returncode}, "
                f"{len(jars)} jars in {self.lib_dir}): {' '.join(command)}\n{output}"
            )
        (self.lib_dir / INSTALLED_MARKER).write_text(f"{len(jars)} jars\n", encoding="utf-8")

    # -- java ------------------------------------------------------------------------------

    def resolve_java(self) -> str:
        """Return the java executable to use: the ``java`` argument, ``$JAVA_HOME``, or PATH.

        Raises:
            LauncherError: if none is found or it is older than Java 17.
        """
        java = self.java
        if java is None:
            java_home = os.environ.get("JAVA_HOME")
            if java_home and (Path(java_home) / "bin" / "java").is_file():
                java = str(Path(java_home) / "bin" / "java")
            else:
                java = shutil.which("java")
        if java is None:
            raise LauncherError(
                f"no Java found (pass java=, set JAVA_HOME or put java on PATH); "
                f"Neo4j {NEO4J_VERSION} needs Java {MIN_JAVA} or 21"
            )
        major = java_major_version(java)
        if major < MIN_JAVA:
            raise LauncherError(
                f"{java} is Java {major}; Neo4j {NEO4J_VERSION} needs Java {MIN_JAVA} or newer"
            )
        return java

    def command(self, java: str) -> list[str]:
        """Return the command line that runs the server in the foreground."""
        classpath = os.pathsep.join(
            str(self.home / sub / "*") for sub in ("plugins", "conf", "lib")
        )
        return [
            java,
            *JVM_OPTIONS,
            "-cp",
            classpath,
            MAIN_CLASS,
            f"--home-dir={self.home}",
            f"--config-dir={self.home / 'conf'}",
            "--console-mode",
        ]

    # -- lifecycle -------------------------------------------------------------------------

    def _read_pid(self) -> int | None:
        try:
            return int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None

    def _running_pid(self) -> int | None:
        """Return the pid of this home's live server, or None (removing a stale pid file)."""
        pid = self._read_pid()
        if pid is None:
            return None
        if pid_alive(pid) and is_our_server(pid, self.home):
            return pid
        self.pid_path.unlink(missing_ok=True)
        return None

    def _live_ports(self) -> tuple[int, int]:
        """Return (bolt, http) ports in this home's neo4j.conf, else this launcher's own."""
        try:
            ports = conf_ports(self.conf_path.read_text(encoding="utf-8"))
        except OSError:
            ports = None
        return ports if ports is not None else (self.bolt_port, self.http_port)

    def _ready(self, bolt_port: int, http_port: int) -> bool:
        return port_open(bolt_port) and http_ok(f"http://127.0.0.1:{http_port}/")

    def _status(self, pid: int | None, ready: bool | None = None) -> ServerStatus:
        bolt_port, http_port = (
            self._live_ports() if pid is not None else (self.bolt_port, self.http_port)
        )
        if ready is None:
            ready = pid is not None and self._ready(bolt_port, http_port)
        return ServerStatus(
            running=pid is not None,
            pid=pid,
            bolt_uri=f"bolt://127.0.0.1:{bolt_port}",
            http_url=f"http://127.0.0.1:{http_port}",
            home=self.home,
            version=NEO4J_VERSION,
            ready=ready,
            bolt_port=bolt_port,
            http_port=http_port,
        )

    def status(self) -> ServerStatus:
        """Return the status of this home's server (not running if there is no live pid)."""
        return self._status(self._running_pid())

    def _failure(self, reason: str) -> LauncherError:
        logs = "\n".join((tail(self.console_log), tail(self.home / "logs" / "neo4j.log")))
        return LauncherError(f"{reason}\n{logs}")

    def start(self, timeout: float = 120.0) -> ServerStatus:
        """Install if needed, start the server detached and wait until Bolt and HTTP answer.

        Idempotent: if this home's server is already running, waits for it to be ready and
        returns its status.

        Returns:
            The status of the ready server.

        Raises:
            LauncherError: if Java or Maven is missing or unsuitable, a port is taken by
                another process, the server exits, or it is not ready within ``timeout``
                seconds (the message holds the ends of console.log and neo4j.log).
        """
        pid = self._running_pid()
        if pid is not None:
            bolt_port, http_port = self._live_ports()
            if (bolt_port, http_port) != (self.bolt_port, self.http_port):
                raise LauncherError(
                    f"the Neo4j server of {self.home} (pid {pid}) is already running on bolt "
                    f"port {bolt_port} / http port {http_port}, not {self.bolt_port} / "
                    f"{self.http_port}; stop it first"
                )
            self._wait_ready(pid, None, timeout)
            return self._status(pid, ready=True)

        java = self.resolve_java()
        for name, port in (("Bolt", self.bolt_port), ("HTTP", self.http_port)):
            if port_open(port):
                raise LauncherError(
                    f"{name} port {port} on 127.0.0.1 is already in use by another process "
                    f"(not the Neo4j of {self.home}); stop it or choose other ports"
                )
        self.ensure_installed()

        self.pid_path.parent.mkdir(parents=True, exist_ok=True)
        self.console_log.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, NEO4J_HOME=str(self.home), NEO4J_CONF=str(self.home / "conf"))
        with self.console_log.open("ab") as log:
            try:
                # A new session: Ctrl-C in the caller's terminal must not kill the server.
                proc = subprocess.Popen(  # noqa: S603 -- fixed argv, no shell
                    self.command(java),
                    cwd=self.home,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,
                )
            except OSError as exc:
                raise LauncherError(f"cannot start {java}: {exc}") from exc
        self._proc = proc
        self.pid_path.write_text(f"{proc.pid}\n", encoding="utf-8")
        try:
            self._wait_ready(proc.pid, proc, timeout)
        except LauncherError:
            # Do not leave a half-started server holding the ports and the store lock.  Kill the
            # process spawned here directly: stop() would refuse a pid it cannot recognise.
            if proc.poll() is None:  # once reaped, the pid may belong to someone else
                self._terminate(proc.pid, timeout=30.0)
            self.pid_path.unlink(missing_ok=True)
            raise
        return self._status(proc.pid, ready=True)

    def _wait_ready(self, pid: int, proc: subprocess.Popen[bytes] | None, timeout: float) -> None:
        bolt_port, http_port = self._live_ports()
        deadline = time.monotonic() + timeout
        while True:
            exited = proc.poll() is not None if proc is not None else not pid_alive(pid)
            if exited:
                code = f" with exit code {proc.returncode}" if proc is not None else ""
                raise self._failure(f"Neo4j (pid {pid}) exited during start-up{code}")
            if self._ready(bolt_port, http_port):
                return
            if time.monotonic() >= deadline:
                raise self._failure(
                    f"Neo4j (pid {pid}) was not ready within {timeout:.0f} s "
                    f"(bolt port {bolt_port} accepting and http://127.0.0.1:{http_port}/ "
                    "answering 200)"
                )
            time.sleep(0.25)

    def wait_idle(self, *, busy: float = 0.1, window: float = 2.0, timeout: float = 300.0) -> bool:
        """Wait until the server uses less than ``busy`` of one core over ``window`` seconds.

        After a bulk load, Neo4j keeps merging its Lucene segments and compiling for a
        minute or more; a benchmark that starts measuring at once measures that too.

        Returns:
            Whether it went quiet within ``timeout`` seconds.

        Raises:
            LauncherError: the server is not running, or stopped while waited for.
        """
        pid = self._running_pid()
        if pid is None:
            raise LauncherError(f"no Neo4j is running in {self.home}")
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                started, used = time.monotonic(), cpu_seconds(pid)
                time.sleep(window)
                if cpu_seconds(pid) - used < busy * (time.monotonic() - started):
                    return True
        except FileNotFoundError as e:
            raise LauncherError(f"Neo4j (pid {pid}) stopped while waited for") from e
        return False

    def stop(self, timeout: float = 60.0) -> bool:
        """Stop this home's server: SIGTERM, then SIGKILL after ``timeout`` seconds.

        Returns:
            True if a running server was stopped, False if none was running.

        Raises:
            LauncherError: if the process survives SIGKILL.
        """
        pid = self._running_pid()
        if pid is None:
            return False
        self._terminate(pid, timeout)
        self.pid_path.unlink(missing_ok=True)
        self._proc = None
        return True

    def _terminate(self, pid: int, timeout: float) -> None:
        # SIGTERM to the java process itself runs Neo4j's shutdown hook (clean store close).
        self._signal(pid, signal.SIGTERM)
        if not self._wait_exit(pid, timeout):
            self._signal(pid, signal.SIGKILL)
            if not self._wait_exit(pid, 10.0):
                raise LauncherError(f"Neo4j (pid {pid}) did not exit after SIGKILL")

    @staticmethod
    def _signal(pid: int, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            if self._proc is not None and self._proc.pid == pid:
                if self._proc.poll() is not None:
                    return True
            elif not pid_alive(pid):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
