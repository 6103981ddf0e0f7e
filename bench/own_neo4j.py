"""A Neo4j server of a benchmark's own, beside the development one.

Each benchmark runs its store in a home of its own under the cache (its own ports, its data
wiped first so every run starts empty), on the jars of the main install, linked rather than
downloaded again. Imported by the benchmark scripts (run as scripts, so this directory is
first on their path).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from beliefgraph.config import default_cache_dir
from beliefgraph.launcher.home import NEO4J_VERSION
from beliefgraph.launcher.server import Neo4jLauncher


def start(home: Path, bolt: int, http: int, *, wipe: bool = True) -> Neo4jLauncher:
    """Start the server of ``home`` on these ports (stopped first if it runs), its data wiped
    unless ``wipe`` is false; return its launcher (the caller stops it)."""
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "lib").exists():
        main_lib = default_cache_dir() / f"neo4j-{NEO4J_VERSION}" / "lib"
        (home / "lib").symlink_to(main_lib, target_is_directory=True)
    launcher = Neo4jLauncher(home=home, bolt_port=bolt, http_port=http)
    if launcher.status().running:
        launcher.stop()
    if wipe:
        shutil.rmtree(home / "data", ignore_errors=True)
    launcher.start(timeout=300)
    return launcher
