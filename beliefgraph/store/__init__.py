"""The belief store: gated writes, reads and explicit changes of beliefs.

:class:`Store` (in :mod:`beliefgraph.store.changes`) is importable from here.
"""

from beliefgraph.store.changes import Store

__all__ = ["Store"]
