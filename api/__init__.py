"""The HTTP layer of beliefgraph: FastAPI routes over :mod:`beliefgraph`."""
