"""beliefgraph: a graph-backed belief store for AI agents.

The library never imports FastAPI; it takes a Neo4j driver and an embedder as inputs
(see :class:`beliefgraph.store.Store`).
"""

__version__ = "0.1.0"
