"""Install, start, stop and inspect a local Neo4j 5.26 Community server without Docker.

:mod:`~beliefgraph.launcher.home` holds what the launcher writes and checks (versions, the
Maven project, the Neo4j configuration, process checks), :mod:`~beliefgraph.launcher.server`
the :class:`~beliefgraph.launcher.server.Neo4jLauncher` itself. Standard library only: the
CLI and the test fixtures build on this package.
"""
