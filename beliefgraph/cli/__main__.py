"""``python -m beliefgraph.cli``: the command line, as the ``beliefgraph`` script runs it."""

import sys

from beliefgraph.cli.parser import main

sys.exit(main())
