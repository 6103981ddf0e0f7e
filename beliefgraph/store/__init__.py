"""The belief store: gated writes, reads and explicit changes of beliefs.

:class:`Store` (in :mod:`beliefgraph.store.store`) is importable from here.
"""

from beliefgraph.store.store import Store

__all__ = ["Store"]
