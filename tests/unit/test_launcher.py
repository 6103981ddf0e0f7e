"""Unit tests of the Neo4j launcher that need neither a server nor a download."""

from __future__ import annotations

import os
import socket
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from beliefgraph.launcher import home as launcher
from beliefgraph.launcher.home import (
    INSTALLED_MARKER,
    NEO4J_VERSION,
    LauncherError,
    default_home,
    java_major_version,
    render_conf,
)
from beliefgraph.launcher.server import Neo4jLauncher

REPO = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="fake java is a shell script")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _fake_java(tmp_path: Path, version: str, server_script: str = "exit 0") -> str:
    """Write a shell script that answers `-version` like a JDK and otherwise runs server_script."""
    path = tmp_path / "fake-java"
    path.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-version" ]; then\n'
        f"  echo 'openjdk version \"{version}\" 2025-04-15' >&2\n"
        "  exit 0\n"
        "fi\n"
        f"{server_script}\n"
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def installed_home(tmp_path: Path) -> Path:
    """A home that looks installed, so start() goes straight to spawning java."""
    home = tmp_path / "home"
    (home / "lib").mkdir(parents=True)
    (home / "lib" / INSTALLED_MARKER).write_text("0 jars\n")
    return home


@pytest.fixture
def listening_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_pom_constant_matches_repo_file() -> None:
    assert (REPO / "neo4j" / "pom.xml").read_text(encoding="utf-8") == launcher.POM_XML


def test_pom_pins_the_verified_artifacts() -> None:
    pom = launcher.POM_XML
    assert "<packaging>pom</packaging>" in pom
    for artifact, version in (
        ("<artifactId>neo4j</artifactId>", NEO4J_VERSION),
        ("<artifactId>neo4j-server</artifactId>", NEO4J_VERSION),
        ("<artifactId>neo4j-browser</artifactId>", "5.24.0"),
    ):
        assert f"{artifact}\n      <version>{version}</version>" in pom


def test_conf_template_matches_repo_file() -> None:
    assert (REPO / "neo4j" / "neo4j.conf").read_text(encoding="utf-8") == launcher.CONF_TEMPLATE


def test_render_conf_fills_ports() -> None:
    conf = render_conf(bolt_port=17687, http_port=17474)
    assert "server.bolt.listen_address=127.0.0.1:17687\n" in conf
    assert "server.http.listen_address=127.0.0.1:17474\n" in conf
    assert "{" not in conf
    assert "}" not in conf
    assert launcher.conf_ports(conf) == (17687, 17474)


def test_conf_is_loopback_only_without_auth_and_with_small_memory() -> None:
    settings = dict(
        line.split("=", 1)
        for line in render_conf(7687, 7474).splitlines()
        if line and not line.startswith("#")
    )
    assert settings["server.default_listen_address"] == "127.0.0.1"
    assert settings["dbms.security.auth_enabled"] == "false"
    assert settings["server.memory.pagecache.size"] == "256m"
    # Refused by 5.26's strict validation: the server would not start.
    assert "browser.allow_outgoing_connections" not in settings
    assert "-Xmx1g" in launcher.JVM_OPTIONS


def test_default_home_honours_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELIEFGRAPH_NEO4J_HOME", str(tmp_path / "custom"))
    assert default_home() == tmp_path / "custom"
    monkeypatch.delenv("BELIEFGRAPH_NEO4J_HOME")
    assert default_home() == Path.home() / ".cache" / "beliefgraph" / f"neo4j-{NEO4J_VERSION}"


def test_constructor_does_no_work(tmp_path: Path) -> None:
    Neo4jLauncher(home=tmp_path / "nothing-here", java="/no/such/java")
    assert not (tmp_path / "nothing-here").exists()


def test_status_of_empty_home_is_not_running(tmp_path: Path) -> None:
    status = Neo4jLauncher(home=tmp_path, bolt_port=17687, http_port=17474).status()
    assert not status.running
    assert not status.ready
    assert status.pid is None
    assert status.bolt_uri == "bolt://127.0.0.1:17687"
    assert status.http_url == "http://127.0.0.1:17474"
    assert status.browser_url == "http://127.0.0.1:17474/browser/"
    assert status.home == tmp_path
    assert status.version == NEO4J_VERSION


def test_pid_file_of_another_process_is_stale(tmp_path: Path) -> None:
    # Our own pid is alive but is not a Neo4j of this home: a recycled pid must never be killed.
    neo = Neo4jLauncher(home=tmp_path)
    neo.pid_path.parent.mkdir(parents=True)
    neo.pid_path.write_text(f"{os.getpid()}\n")
    assert not neo.status().running
    assert not neo.pid_path.exists()
    neo.pid_path.write_text(f"{os.getpid()}\n")
    assert neo.stop() is False


def test_stop_without_server_returns_false(tmp_path: Path) -> None:
    assert Neo4jLauncher(home=tmp_path).stop() is False


def test_cpu_seconds_counts_this_process_work() -> None:
    before = launcher.cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    assert launcher.cpu_seconds(os.getpid()) - before >= 0.2


def test_wait_idle_without_server_raises(tmp_path: Path) -> None:
    with pytest.raises(LauncherError, match="no Neo4j is running"):
        Neo4jLauncher(home=tmp_path).wait_idle(timeout=1)


def test_command_runs_community_entry_point(tmp_path: Path) -> None:
    cmd = Neo4jLauncher(home=tmp_path).command("/opt/java")
    assert cmd[0] == "/opt/java"
    assert "org.neo4j.server.CommunityEntryPoint" in cmd
    assert f"--home-dir={tmp_path}" in cmd
    assert "--console-mode" in cmd
    assert cmd[cmd.index("-cp") + 1].endswith(f"{tmp_path / 'lib' / '*'}")


def test_start_with_bogus_java_raises_clearly(tmp_path: Path) -> None:
    neo = Neo4jLauncher(home=tmp_path / "home", java="/no/such/java")
    with pytest.raises(LauncherError, match=r"cannot run Java executable '/no/such/java'"):
        neo.start(timeout=5)
    assert not (tmp_path / "home").exists()  # failed before downloading anything


@posix_only
def test_start_with_old_java_raises(tmp_path: Path) -> None:
    java = _fake_java(tmp_path, "11.0.2")
    with pytest.raises(LauncherError, match=r"Java 11; Neo4j 5\.26\.30 needs Java 17"):
        Neo4jLauncher(home=tmp_path / "home", java=java).start(timeout=5)


@posix_only
def test_java_version_parsing(tmp_path: Path) -> None:
    assert java_major_version(_fake_java(tmp_path, "17.0.15")) == 17
    assert java_major_version(_fake_java(tmp_path, "1.8.0_392")) == 8
    assert java_major_version(_fake_java(tmp_path, "21")) == 21


@posix_only
def test_start_refuses_taken_bolt_port(
    tmp_path: Path, installed_home: Path, listening_port: int
) -> None:
    neo = Neo4jLauncher(
        home=installed_home,
        bolt_port=listening_port,
        http_port=_free_port(),
        java=_fake_java(tmp_path, "17.0.15"),
    )
    with pytest.raises(LauncherError, match=rf"Bolt port {listening_port} .* already in use"):
        neo.start(timeout=5)
    assert not neo.pid_path.exists()


@posix_only
def test_start_reports_server_exit_with_log_tail(tmp_path: Path, installed_home: Path) -> None:
    java = _fake_java(tmp_path, "17.0.15", 'echo "fake neo4j: Unrecognized setting"; exit 3')
    neo = Neo4jLauncher(
        home=installed_home, bolt_port=_free_port(), http_port=_free_port(), java=java
    )
    with pytest.raises(LauncherError) as excinfo:
        neo.start(timeout=30)
    message = str(excinfo.value)
    assert "exited during start-up with exit code 3" in message
    assert "fake neo4j: Unrecognized setting" in message  # from console.log
    assert "neo4j.log: (missing)" in message
    assert not neo.pid_path.exists()
    assert not neo.status().running
    assert (installed_home / "conf" / "neo4j.conf").is_file()


@posix_only
def test_start_times_out_and_cleans_up(tmp_path: Path, installed_home: Path) -> None:
    # A "server" that never opens its ports: start() must give up and not leave it running.
    java = _fake_java(tmp_path, "17.0.15", "exec sleep 60")
    neo = Neo4jLauncher(
        home=installed_home, bolt_port=_free_port(), http_port=_free_port(), java=java
    )
    with pytest.raises(LauncherError, match=r"was not ready within 1 s"):
        neo.start(timeout=1.0)
    assert not neo.pid_path.exists()
