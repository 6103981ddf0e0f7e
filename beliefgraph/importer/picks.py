"""A choice among what the assistant offered: "fargate.", "the 7:40.", "roomba j7 then."

Asked to weigh options, people answer with the option alone. Read alone, "corolla." says
nothing; read after the assistant's message that named the Corolla and the Prius, it is the
user's decision. :func:`picks` finds such answers in a user's turn: a short noun phrase,
perhaps led by "ok"/"fine"/"yeah" and closed by a word of choosing ("then", "it is", "yes",
"works", "first", "nope"), whose head the assistant's message names. An option said bare,
with no word of choosing, is a pick only as a sentence of its own ("fargate. we'll revisit
if ..."), not as a clause of a longer one ("rent 1600, bills on top"). A phrase with a verb
of its own, a question, a hedge ("maybe", "X or Y"), a reaction ("ugh the xps", "brass sounds
lovely"), a courtesy ("good idea") or a thing the assistant never named is no pick; nor is
taking up the assistant's offer of its own work ("Want me to make a poster?" "poster yes").

>>> picks("fargate. we'll revisit if the cost gets silly", "Fargate unless you need GPUs.")
[('fargate', 'Fargate unless you need GPUs.')]
>>> picks("good idea.", "A good idea is to test both.")
[]
"""

from __future__ import annotations

import re

from beliefgraph.importer.sentences import sentences
from beliefgraph.language.words import fold_plural

#: what may lead a pick: "ok the 10:09 works", "fine £500 excess then"
_LEAD = (
    r"^(?P<lead>(?:(?:ok(?:ay)?|fine|yeah|yep|yes|sure|alright|right|cool|great|perfect|ooh+|"
    r"oh|hmm+|so|and|then|def(?:initely)?|k)\b[\s,.!:;-]*)*)"
)
#: what may close a pick: a word of choosing, or of choosing against ("zucchini nope")
_CLOSE = (
    r"(?P<close>(?:\s*[,:-]?\s*(?:then|it is(?: then)?|yes(?: pls| please)?|pls|please|"
    r"for sure|sure|works(?: for (?:me|us))?|wins|first|for me|for us|def(?:initely)?|"
    r"all the way|sounds right|is fine|fine|is the one|nope|no|is out)\b)*)"
)
#: words of choosing that also tell a state ("the sensor is fine", "the 10:09 works")
_EVALUATIVE = re.compile(r"(?:is )?fine|works(?: for (?:me|us))?|sounds right")
#: the option itself: one to four words, the first not a word a clause starts with
_OPTION = (
    r"(?!(?:i|im|i'm|we|you|he|she|they|it|its|it's|this|that|there|theres|there's|thats|"
    r"that's|hes|shes|theyre|ive|what|whats|how|why|who|"
    r"when|where|which|can|could|would|should|do|does|did|is|are|was|will|thanks|thank|thx|"
    r"no|not|nah|yes|yeah|ok|okay|sure|sounds|looks|both|neither|either|all|none|same|me|my|"
    r"our|your|and|but|as|with|for|of|in|on|at|to|from)\b)"
    r"(?P<option>(?:the |a |an )?[\w£$€&+./:'-]+(?: [\w£$€&+./:'-]+){0,3}?)"
)
_PICK = re.compile(_LEAD + _OPTION + _CLOSE + r"[\s.!]*(?:[^\w\s]{1,3})?\s*$", re.IGNORECASE)
#: words that make a phrase a clause, a hedge, a reaction or a courtesy, not an option
_NOT_AN_OPTION = re.compile(
    r"\b(?:is|are|was|were|be|been|have|has|had|do|does|did|get|got|go|went|think|know|see|"
    r"saw|need|want|like|love|hate|tried|try|drove|made|make|said|says|told|feel|felt|looks?|"
    r"sounds|seems|good|great|nice|cool|lovely|sick|brilliant|handy|amazing|ideas?|thanks|"
    r"thank|point|fair|true|interesting|noted|perfect|lol|lmao|haha|ugh|omg|wow|meh|hmm|okay|"
    r"ok|sure|yes|no|not|just|also|too|really|very|so|or|maybe|probably|perhaps|possibly|"
    r"honestly|actually|mainly|mostly|though|out|in|off|on|done|gone|fine|better|best|worse|"
    r"s|re|it|them|"
    # an instruction to the assistant: "book the 11:15 one", "sure add it"
    r"book|add|send|write|give|show|put|use|find|check|pick|order|remove|drop|keep|change)\b"
)
#: the assistant offering its own work ("Want me to make a poster?"): taking it up is a
#: request for now, not a decision
_OFFERS_WORK = re.compile(
    r"\b(?:want me to|shall i|should i|would you like me to|i can|i could|i'?ll|let me)\b",
    re.IGNORECASE,
)
#: heads too general to name what was offered ("the coniston one")
_GENERAL = re.compile(r"^(?:one|ones|options?|things?|choice|plan|idea|way)$")
_WORD = re.compile(r"[a-z0-9£$€]+")
#: where a turn's sentences and their clauses part: "fargate. we'll revisit if ...",
#: "sqlalchemy yes, alembic no.", "roth first - then the 401k"
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_PART = re.compile(r"\s*(?:[,;]|\s[\u2014\u2013-])\s+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("-", ""))


def _same(a: str, b: str) -> bool:
    """Whether two words name the same thing: equal, a plural, or a number with its unit
    ("35" and "35mm", "40" and "40am")."""
    if fold_plural(a) == fold_plural(b):
        return True
    short, long = sorted((a, b), key=len)
    return short[:1].isdigit() and long.startswith(short) and not long[len(short)].isdigit()


def _offer(part: str, offered: str, *, alone: bool) -> str | None:
    """The sentence of ``offered`` that names what ``part`` picks, or ``None``; ``alone``:
    ``part`` is a whole sentence."""
    said = part.strip()
    if said.endswith(("...", "\u2026")):
        return None  # words trailing off: no choice made
    m = _PICK.match(said)
    if m is None:
        return None
    # said bare, an option is a pick only as a sentence of its own, and not after "so",
    # which opens a topic ("ok so crate training."); as a clause of a longer sentence it
    # needs a word of choosing that is not a state's ("downstream sensor is fine")
    close = m["close"].strip(" ,:-").lower()
    if not close and (not alone or re.search(r"\bso\b", m["lead"], re.IGNORECASE)):
        return None
    if close and not alone and _EVALUATIVE.fullmatch(close):
        return None
    words = [w for w in _words(m["option"]) if w not in ("the", "a", "an")]
    if not words or any(_NOT_AN_OPTION.fullmatch(w) for w in words):
        return None
    named = [w for w in words if not _GENERAL.match(w)]
    if not named:
        return None
    head = named[-1]
    for offer in sentences(offered):
        if any(_same(head, w) for w in _words(offer)):
            return None if _OFFERS_WORK.search(offer) else offer
    return None


def picks(text: str, offered: str) -> list[tuple[str, str]]:
    """Each part of ``text`` (a user's turn, or a line of it) that picks what ``offered``
    (the assistant's message it answers) names, with the sentence of ``offered`` that names
    it; a question's parts pick nothing."""
    found = []
    for sentence in _SENTENCE.split(text.strip()):
        if "?" in sentence:
            continue
        parts = _PART.split(sentence)
        for part in parts:
            offer = _offer(part, offered, alone=len(parts) == 1)
            if offer is not None:
                found.append((part.strip().rstrip(".!,; "), offer))
    return found
