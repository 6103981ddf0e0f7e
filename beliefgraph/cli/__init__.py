"""The ``beliefgraph`` command line (``python -m beliefgraph.cli``)."""
