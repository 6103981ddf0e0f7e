"""The launcher's home: versions, the Maven project and Neo4j configuration it writes, and
process checks.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

NEO4J_VERSION = "5.26.30"
BROWSER_VERSION = "5.24.0"
MIN_JAVA = 17

PID_FILE_NAME = "beliefgraph-neo4j.pid"
# Written only after copy-dependencies succeeded, so an interrupted download is redone.
INSTALLED_MARKER = f".beliefgraph-installed-{NEO4J_VERSION}"
HOME_SUBDIRS = ("conf", "data", "logs", "run", "import", "plugins")
MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
JVM_OPTIONS = (
    "-Xms512m",
    "-Xmx1g",
    "-XX:+UseG1GC",
    # Neo4j's off-heap and Netty code reflect into the JDK; Java 17 denies that without these.
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
)
LOG_TAIL_LINES = 40
MAVEN_TIMEOUT_S = 1800.0

# Kept byte-identical to neo4j/pom.xml (a unit test checks): the file is for running mvn by hand,
# the constant works when the package is installed without the repository around it.
POM_XML = f"""\
<?xml version="1.0" encoding="UTF-8"?>
<!--
  The jars of a Neo4j {NEO4J_VERSION} Community server, from Maven Central.
  beliefgraph/launcher/home.py holds an identical copy (POM_XML) and runs:
    mvn -B -q -f pom.xml dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory=<home>/lib
-->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>beliefgraph</groupId>
  <artifactId>beliefgraph-neo4j-server</artifactId>
  <version>{NEO4J_VERSION}</version>
  <packaging>pom</packaging>

  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>

  <dependencies>
    <dependency>
      <groupId>org.neo4j</groupId>
      <artifactId>neo4j</artifactId>
      <version>{NEO4J_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>org.neo4j.app</groupId>
      <artifactId>neo4j-server</artifactId>
      <version>{NEO4J_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>org.neo4j.client</groupId>
      <artifactId>neo4j-browser</artifactId>
      <version>{BROWSER_VERSION}</version>
    </dependency>
  </dependencies>
</project>
"""

# Kept byte-identical to neo4j/neo4j.conf (a unit test checks).  Neo4j refuses unknown keys at
# start, so every key here is a real 5.26 setting.
CONF_TEMPLATE = """\
# Neo4j 5.26 configuration for beliefgraph's local development / test server.
# This file is a template: beliefgraph/launcher/server.py fills in the two port placeholders
# and writes the result to <home>/conf/neo4j.conf.  Strict validation is on: an unknown key
# stops the server.
server.default_listen_address=127.0.0.1
server.bolt.enabled=true
server.bolt.listen_address=127.0.0.1:{bolt_port}
server.bolt.tls_level=DISABLED
server.http.enabled=true
server.http.listen_address=127.0.0.1:{http_port}
server.https.enabled=false
dbms.security.auth_enabled=false
# relative paths resolve against --home-dir
server.directories.data=data
server.directories.logs=logs
server.directories.run=run
server.directories.import=import
server.directories.plugins=plugins
# the heap (512m-1g) is set on the java command line; keep the page cache small too
server.memory.pagecache.size=256m
db.tx_log.rotation.retention_policy=1 files
dbms.usage_report.enabled=false
client.allow_telemetry=false
# a request in progress gets a keep-alive every second, and the server tells the driver to
# give up on a connection silent for three (connection.recv_timeout_seconds): a Neo4j that
# stops answering mid-request costs seconds, not the default two minutes
server.bolt.connection_keep_alive=1s
server.bolt.connection_keep_alive_probes=3
server.bolt.connection_keep_alive_streaming_scheduling_interval=500ms
"""

_BOLT_LISTEN_RE = re.compile(r"^server\.bolt\.listen_address=.*:(\d+)\s*$", re.MULTILINE)
_HTTP_LISTEN_RE = re.compile(r"^server\.http\.listen_address=.*:(\d+)\s*$", re.MULTILINE)
_JAVA_VERSION_RE = re.compile(r'version "(\d+)(?:\.(\d+))?')


class LauncherError(RuntimeError):
    """raised when the local Neo4j cannot be installed, started or stopped"""


@dataclass(frozen=True)
class ServerStatus:
    """What is known about the server of one home directory.

    ``running`` means the process in the pid file is alive; ``ready`` additionally means Bolt
    accepts connections and HTTP answers 200 (checked with short timeouts when running).
    """

    running: bool
    pid: int | None
    bolt_uri: str
    http_url: str
    home: Path
    version: str
    ready: bool = False
    bolt_port: int = 7687
    http_port: int = 7474

    @property
    def browser_url(self) -> str:
        """Return the URL of Neo4j Browser served by this server."""
        return f"{self.http_url}/browser/"


def default_home() -> Path:
    """Return the Neo4j home: ``$BELIEFGRAPH_NEO4J_HOME`` if set, else a per-user cache directory.

    The default is outside the checkout so the jars survive ``git clean`` and are shared by
    worktrees.
    """
    env = os.environ.get("BELIEFGRAPH_NEO4J_HOME")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "beliefgraph" / f"neo4j-{NEO4J_VERSION}"


def render_conf(bolt_port: int, http_port: int) -> str:
    """Return the text of ``neo4j.conf`` for the given ports."""
    return CONF_TEMPLATE.format(bolt_port=bolt_port, http_port=http_port)


def conf_ports(text: str) -> tuple[int, int] | None:
    """Return (bolt, http) ports from a rendered neo4j.conf, or None if they are not both there."""
    bolt = _BOLT_LISTEN_RE.search(text)
    http = _HTTP_LISTEN_RE.search(text)
    if bolt is None or http is None:
        return None
    return int(bolt.group(1)), int(http.group(1))


def port_open(port: int, timeout: float = 0.5) -> bool:
    """Return whether something on 127.0.0.1 accepts TCP connections on ``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


# Loopback must never go through an HTTP proxy from the environment.
_NO_PROXY_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_ok(url: str, timeout: float = 2.0) -> bool:
    """Return whether ``url`` answers HTTP 200."""
    try:
        with _NO_PROXY_OPENER.open(url, timeout=timeout) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    """Return the last ``lines`` lines of a text file, or a note that it does not exist."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"--- {path}: (missing)"
    body = "\n".join(text.splitlines()[-lines:])
    return f"--- last {lines} lines of {path}:\n{body}"


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far, from /proc.

    Raises:
        FileNotFoundError: no such process.
    """
    # /proc/<pid>/stat: utime and stime are its 14th and 15th fields, the 12th and 13th
    # after the command name, which is in parentheses and may hold spaces
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pid_alive(pid: int) -> bool:
    """Return whether process ``pid`` exists and is not a zombie."""
    try:
        # Reap it if it is our own exited child; otherwise a zombie would look alive forever.
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no procfs (macOS): trust kill(0)
    # The state field follows the parenthesised command name.
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def is_our_server(pid: int, home: Path) -> bool:
    """Return whether ``pid`` is a Neo4j server of ``home`` (guards against recycled pids)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return True  # no procfs: cannot tell, trust the pid file
    return MAIN_CLASS in cmdline and f"--home-dir={home}" in cmdline


def java_major_version(java: str) -> int:
    """Return the feature version (17, 21, ...) of the ``java`` executable.

    Raises:
        LauncherError: if it cannot be run or its version cannot be parsed.
    """
    try:
        # The executable is the caller's own choice of JDK, run without a shell.
        result = subprocess.run(  # noqa: S603
            [java, "-version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise LauncherError(f"cannot run Java executable {java!r}: {exc}") from exc
    # `java -version` prints to stderr.
    output = result.stderr + result.stdout
    match = _JAVA_VERSION_RE.search(output)
    if result.returncode != 0 or match is None:
        raise LauncherError(
            f"{java!r} -version failed (exit {result.returncode}); output:\n{output.strip()}"
        )
    major = int(match.group(1))
    if major == 1 and match.group(2) is not None:  # "1.8.0_392" style
        major = int(match.group(2))
    return major
