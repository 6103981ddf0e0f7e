"""Reading text for the planner and the gate: words, acts, directives, stakes, things, scopes.

Everything here is a pure function of text (no database, no model), so the rules can be
read, unit-tested and reasoned about on their own:

* :mod:`~beliefgraph.language.acts` - what a request would *do* (read / write / execute),
  and, for a belief, which acts it talks about (and :mod:`~beliefgraph.language.questions`
  for questions that only ask to be told: what was done, what the rule is;
  :mod:`~beliefgraph.language.verbs` for the verbs of each kind of act);
* :mod:`~beliefgraph.language.directives` - whether a belief's text is a rule (a
  requirement, a prohibition, a permission) and how protective it is (and
  :mod:`~beliefgraph.language.ways` for a request that takes the way a rule names);
* :mod:`~beliefgraph.language.stakes` - what a request puts at stake (safety, secrets,
  private data, money, someone else's act);
* :mod:`~beliefgraph.language.things` - what a text is about: its things, each a head
  word with the words that qualify it, and :mod:`~beliefgraph.language.aboutness` for how a
  request's things meet a belief's (and :mod:`~beliefgraph.language.names`,
  :mod:`~beliefgraph.language.properties`, :mod:`~beliefgraph.language.instances` for the
  numbered ones of a kind, and :mod:`~beliefgraph.language.labels` for the thing a note's
  label names);
* :mod:`~beliefgraph.language.scopes` - whether a request falls inside a belief's
  jurisdiction (and :mod:`~beliefgraph.language.thresholds` for a rule that applies only
  above a sum);
* :mod:`~beliefgraph.language.frames` - the subject, attribute and value a plain statement
  sets.

>>> from beliefgraph.language.acts import infer_action_types
>>> sorted(a.value for a in infer_action_types("Remind me the dose so I can fill the pillbox"))
['execute', 'read']
"""
