"""Speaker-true extraction: which statements of a conversation turn become beliefs (DESIGN §6).

The default :class:`RuleExtractor` is deterministic: the same turn always gives the same
statements, which is what makes imports idempotent and resumable. It reads each sentence of
a turn and keeps only those with a clear cue:

=====================  ==============================================  ==================
cue                    examples                                        kind (user turns)
=====================  ==============================================  ==================
``/remember …``        "/remember the spare key is under the mat"      pinned; its own cue
hedge / open question  "thinking about", "haven't decided",            ``open_question``
                       "can't decide", "we may switch …",
                       "should we …?"; a softener ("maybe",
                       "I think", "tentatively", "not 100% sure")
                       with a cue below or a plan of the speaker's
correction             "actually …", "no longer …", "changed to …"     ``correction``
policy / rule          "always …", "never …", "we must …"              ``policy``
decision               "we decided …", "let's go with …"               ``decision``
preference             "I prefer …", "I'd rather …", "please use …",   ``preference``
                       "I want … from now on"
=====================  ==============================================  ==================

A user's sentence is read in this order (:func:`classify_user`): words in quotation marks
are blanked out; a claim that reports someone else ("My boss said …") yields nothing; a
question that deliberates a choice ("should we …?") is an open question; any other question,
a request ("can you …"), a wish for now ("I'd like a cup of tea") or a correction of a
request ("Actually, make it three bullets.", "Scratch that.") yields nothing; a statement
asked back ("We no longer use Jenkins, right?") is an open question if it has a cue, as a
softened one is, while one followed by a question of its own ("I prefer tabs, what about
you?") or by "ok?" stands as said; a hedge
that says the speaker is still deciding ("haven't decided", "can't decide", "we may switch")
is an open question; then the first cue of the table below the hedges ("I always/never …"
is the speaker's habit, a preference, before the rules) or a standing wish; and a softener
("maybe", "I think", "tentatively") turns a cue, or a plan of the speaker's ("let's …", "we
should …"), into an open question. So "I'm thinking about making you a page someday but
haven't decided" is an open question — never a decision, and never rewritten as "not yet":
the text of a belief is always the speaker's own words — and "I think we'll use Postgres"
is one too, while a softener on its own ("Maybe.") yields nothing.

Questions, requests and idioms assert nothing: "Actually, what time is it in Tokyo?" is no
correction, "Never mind." no rule. Only a question that deliberates a choice ("should we
…?") is kept, as an open question. A wish ("I want …", "I'd like …", "please use …") is a
preference when it is about how things are done in general ("I'd like my summaries in
bullet points", "… from now on"), and a request for now, which yields nothing, when it asks
for one particular thing ("I'd like a cup of tea"): see :func:`standing_wish`.

Speaker-true: only the user's words carry the user's authority. An assistant sentence with
one of the cues above is at most an ``observation`` (or a ``suggestion`` when it
recommends), status ``inferred``, low trust, its text marked as the assistant's; it is never
a decision, preference, policy or correction. System and tool messages yield nothing.
Nor is anyone's belief what a speaker only quotes or reports: ``>`` lines and pasted
material ("Here is the email from Bob:", "Translate to German: …") are skipped (see
:func:`sentences`), words in quotation marks carry no cue, and "My boss said we must always
use Java" is the boss's rule, not the user's, so it yields nothing.

A sentence that gives a reason ("… because …") yields two statements, the claim and its
reason, and the reason is linked to the claim (``CAUSED``).

``/remember`` is a command at the start of any line, after a greeting ("Hi! /remember …")
or after a sentence; what follows it, up to the next command, is one pinned statement in
the user's words, its reason split off and linked as any sentence's is.

:class:`LLMExtractor` asks an OpenAI-compatible chat endpoint instead, then applies the same
speaker rules to whatever it returns; when the endpoint fails it falls back to the rules.

>>> [s.kind.value for s in RuleExtractor().extract("user", "I prefer tabs over spaces.")]
['preference']
>>> [s.kind.value for s in RuleExtractor().extract("user", "I haven't decided on a name.")]
['open_question']
"""

from __future__ import annotations

import json
import logging
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from beliefgraph.models import EpistemicStatus, Kind, Priority, Status
from beliefgraph.text import CORRECTION_OPENING

log = logging.getLogger(__name__)

#: roles whose words may become beliefs; everything else (system, tool, ...) yields nothing
USER_ROLES = frozenset({"user", "human"})
ASSISTANT_ROLES = frozenset({"assistant", "ai", "model"})

#: how far an assistant's words are trusted: well under a user's 0.9, so the gate's trust
#: guard never lets them supersede what the user said
ASSISTANT_TRUST = 0.3
USER_TRUST = 0.9
REMEMBER_TRUST = 0.95

REMEMBER_WHY = "The user asked to remember this."

#: the prefix that makes an assistant statement read as the assistant's, wherever it shows
ASSISTANT_PREFIX = "The assistant said: "


@dataclass(frozen=True)
class Statement:
    """One belief-to-be extracted from a turn.

    ``caused`` is the index (in the same turn's list) of the statement this one is the
    reason for, or ``None``.
    """

    text: str
    kind: Kind
    speaker: str
    status: Status
    epistemic_status: EpistemicStatus
    trust: float
    confidence: float
    importance: float
    priority: Priority = Priority.normal
    pinned: bool = False
    why_it_matters: str | None = None
    cue: str = ""
    caused: int | None = None


class Extractor(Protocol):
    """Turns one message into statements."""

    def extract(self, role: str, content: str) -> list[Statement]:
        """The statements of one message by ``role``, in the order they were said."""
        ...


# -- sentences -----------------------------------------------------------------------------

#: a fenced code block (``` or ~~~), to its closing fence or the end of the message
_FENCE = re.compile(r"(`{3,}|~{3,}).*?(?:\1|\Z)", re.DOTALL)
#: a line indented as code: four spaces or a tab
_INDENTED = re.compile(r"^(?: {4}|\t)")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[\"'(\[/A-Z0-9\x00]|(?:also|and|but|so|ok|okay|i|we|my|our|pls|please|oh|"
    r"btw|then|plus|anyway)\b)"
)
#: the ``/remember`` command, at the start of a line, after a greeting ("Hi! /remember …") or
#: after a sentence; elsewhere ("How do I use /remember?") it is only mentioned
_REMEMBER = re.compile(
    r"(?:^[ \t]*(?:(?:hi|hello|hey|ok|okay|please|also|and|so|oh|thanks|thank you)\b[ \t,.!:;-]*)*"
    r"|(?<=[.!?])[ \t]+)/remember\b[:\s]*",
    re.IGNORECASE | re.MULTILINE,
)
#: words in quotation marks or inline code: mentioned, not said by the speaker (an
#: apostrophe is no quote)
_QUOTED = re.compile(
    r"`[^`\n]*`|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|\u2018[^\u2019\n]*\u2019|(?<![\w'])'[^'\n]*'(?![\w'])"
)
_HIDDEN = re.compile(r"\x00(\d+)\x00")
#: a quoted line, as in a reply to an email: someone else's words
_QUOTE_LINE = re.compile(r"^\s*>")
#: a line's first colon and what stands before it, unless that colon is a URL's
_COLON = re.compile(r"^(?P<intro>[^:]{1,120}?):(?!//)")
#: what, said before a colon, makes the rest someone else's words or material to work on:
#: "Here is the email from Bob:", "My boss wrote:", "Translate to German:". A bare noun is a
#: topic, not material: "Commit messages: always use the imperative." is the user's rule.
_MATERIAL = re.compile(
    r"\b(?:the|this|that|these|those|a|an|his|her|their|its|my|our|your|\w+'s)\s+(?:\w+\s+)?"
    r"(?:e-?mails?|mails?|messages?|texts?|letters?|posts?|comments?|tweets?|transcripts?|"
    r"logs?|outputs?|errors?|quotes?|excerpts?|paragraphs?|passages?|articles?|documents?|"
    r"drafts?|snippets?|threads?|memos?|announcements?)\b"
    r"|\b(?:said|says|wrote|writes|asked|asks|replied|replies|told|tells|texted|emailed|posted)\b"
    r"|^(?:(?:please|can you|could you|would you|ok|okay|now|also|and)\s+)*"
    r"(?:translate|summari[sz]e|proofread|rewrite|rephrase|paraphrase|reword|fix|correct|check|"
    r"review|edit|reformat|explain|analy[sz]e|shorten|improve|polish|reply to|respond to)\b",
    re.IGNORECASE,
)


#: where a forwarded message or a pasted email begins: what follows is someone else's
_FORWARDED = re.compile(
    r"^\s*(?:-{2,}\s*(?:forwarded|original) message\s*-{2,}|begin forwarded message\s*:|"
    r"(?:from|sent|to|cc|subject|date)\s*:\s*\S.*(?:@|\d{4}|<))",
    re.IGNORECASE,
)
#: a line of a pasted chat: a speaker's name, a colon, what they said ("Bob: we decided …").
#: Labels the user writes themselves ("Decision: …", "Rule: …", "Note: …") are not names.
_SPEAKER = re.compile(r"^(?P<name>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?)\s*:\s+\S")
_LABELS = frozenset(
    {
        *("decision", "rule", "policy", "note", "notes", "update", "reminder", "todo"),
        *("correction", "fyi", "ps", "also", "edit", "question", "answer", "summary"),
        *("context", "tldr", "important", "warning", "tip", "idea", "plan", "goal", "status"),
    }
)


def sentences(content: str) -> list[str]:
    """The sentences of a message in the speaker's own words (see :func:`own_lines`), split
    at their stops, never inside quotation marks.

    >>> sentences('Here is the email from Bob:\\nWe decided to cancel.\\nThanks, Bob')
    ['Here is the email from Bob:']
    """
    return [s for line in own_lines(content) for s in _split(line)]


def own_lines(content: str) -> list[str]:
    """The lines of a message the speaker says, list markers cut: what any cue, a
    ``/remember`` included, is read from.

    Code is dropped (fenced blocks, and lines indented four spaces after a line that ends
    with a colon, a list item aside), and so is what the speaker quotes rather than says:
    lines starting with ``>``, and everything after a line that introduces material ("Here
    is the email from Bob:", "Translate to German: …") to the end of the message — or,
    when the material is quoted with ``>``, those lines only.
    """
    out: list[str] = []
    # a NUL would pass for the marks _split hides quotations behind
    lines = _FENCE.sub(" ", content.replace("\x00", "")).splitlines()
    code, introduced = False, False
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        indented = bool(_INDENTED.match(raw))
        code = indented and (code or (introduced and not _BULLET.match(raw)))
        introduced = raw.rstrip().endswith(":")
        if code or _QUOTE_LINE.match(raw):
            continue
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        if _FORWARDED.match(line):
            break  # a forwarded message, to the end: none of it is the speaker's
        speaker = _SPEAKER.match(line)
        if speaker is not None and speaker["name"].lower() not in _LABELS:
            continue  # a line of a pasted chat: that person's words
        intro = _introduction(line)
        out.append(line if intro is None else intro)
        if intro is not None and not _QUOTE_LINE.match(
            next((n for n in lines[i + 1 :] if n.strip()), "")
        ):
            break
    return out


def _introduction(line: str) -> str | None:
    """The line cut after its colon when what stands before the colon introduces material
    ("Here is the email from Bob:"), else ``None``. Only a short lead-in (12 words) counts:
    a long sentence with a colon in it says something itself."""
    colon = _COLON.match(line)
    if colon is None or len(colon["intro"].split()) > 12:
        return None
    return colon["intro"] + ":" if _MATERIAL.search(_mentioned(colon["intro"])) else None


def _split(line: str) -> list[str]:
    """The sentences of one line, a quotation kept whole whatever stops it holds."""
    quoted: list[str] = []

    def hide(m: re.Match[str]) -> str:
        quoted.append(m.group())
        return f"\x00{len(quoted) - 1}\x00"

    parts = _SENTENCE_END.split(_QUOTED.sub(hide, line))
    return [_HIDDEN.sub(lambda m: quoted[int(m[1])], p).strip() for p in parts if p.strip()]


def _mentioned(sentence: str) -> str:
    """The sentence with what it quotes blanked out: quoted words carry no cue."""
    return _QUOTED.sub('"…"', sentence)


def _tidy(text: str) -> str:
    """A statement's text: whitespace collapsed, a dangling comma or conjunction cut."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"^(?:and|but|so|then)\s+", "", text, flags=re.IGNORECASE)
    return text.strip(" ,;:-")


# -- cues ----------------------------------------------------------------------------------


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


_NEG = r"(?:haven'?t|have not|hasn'?t|has not|didn'?t|did not|not yet|not)"
_PLAN_VERBS = r"(?:be|want|try|switch|use|go|make|do|add|move|change|drop)"
#: hedges that are open questions on their own: the speaker says they are still deciding
DELIBERATION = _any(
    rf"\b{_NEG}\s+(?:\w+\s+)?(?:decided|made up my mind|chosen|settled|committed)\b",
    r"\b(?:can'?t|cannot|can not|couldn'?t) (?:decide|choose|make up my mind)\b",
    r"\b(?:thinking|thought) (?:about|of)\b",
    r"\b(?:considering|wondering|toying with|on the fence|undecided|torn (?:between|on|about))\b",
    r"\btrying to (?:decide|choose|pick|figure out)\b",
    rf"\b(?:i|we) (?:may|might|could) (?:\w+ )?{_PLAN_VERBS}\b",
    r"\b(?:no idea|don'?t know|do not know) (?:yet|if|whether)\b",
    r"\bnot (?:\S+ )?sure (?:yet|about|whether|if|which)\b",
)
#: words that soften whatever they stand with. On their own they carry nothing ("Maybe.",
#: "I think you're right."); with a decision, rule, preference or correction, or with a plan
#: of the speaker's (below), they make it an open question: "I think we'll use Postgres" is
#: not a decision
SOFTENER = _any(
    r"\b(?:maybe|perhaps|possibly|probably|likely|someday|some day|one day|eventually)\b",
    r"\b(?:tentatively|provisionally)\b",
    r"\bi (?:don'?t |do not )?(?:think|guess|suppose|reckon|believe)\b",
    r"\bnot (?:\S+ )?(?:sure|certain|convinced)\b",
    rf"\b(?:may|might|could) {_PLAN_VERBS}\b",
)
#: the speaker's own plan, which a softener turns into a hedge ("maybe we should use Postgres")
PLAN = _any(
    r"\blet'?s\b",
    r"\b(?:i|we)(?:'ll| will| should| shall| could| might| may| need| want|'re going to|"
    r" are going to|'m going to| am going to)\b",
)
#: every hedge, for checking a text someone else classified (see :class:`LLMExtractor`)
HEDGE = _any(DELIBERATION.pattern, SOFTENER.pattern)
#: what a sentence may open with before it says anything: "Actually, …", "Ok so …"
_LEAD = (
    r"^(?:(?:actually|ok(?:ay)?|so|and|but|also|well|oh|hi|hey|hello|sorry|thanks|thank you|"
    r"now|hmm+|um+|alright|right|great|cool)\b[\s,.!:;-]*)*"
)
#: questions that deliberate about a choice (a request such as "can you …?" is not one)
OPEN_QUESTION = _any(
    _LEAD + r"(?:should|shall) (?:we|i)\b.*\?$",
    _LEAD
    + r"(?:what if|would it be better|is it worth|do we (?:want|need)|which (?:one|should))\b.*\?$",
)
#: a sentence that opens as a question; with a "?" it asks, and asserts nothing
QUESTION = re.compile(
    _LEAD + r"(?:please\s+)?(?:what|when|where|who|whom|whose|why|how|which|"
    r"(?:can|could|would|will|won'?t|do|does|did|don'?t|doesn'?t|didn'?t|is|are|was|were|"
    r"isn'?t|aren'?t|has|have|should|shall|may|might|am)\s+(?:you|i|we|it|they|he|she|there|"
    r"this|that|these|those|the|a|an|my|your|our|any\w*|some\w*))\b",
    re.IGNORECASE,
)
#: a sentence that asks the assistant for something now, with a question mark or without
REQUEST = re.compile(
    _LEAD + r"(?:please\s+)?(?:(?:can|could|would|will|won'?t) you|would you mind|"
    r"i (?:was )?wonder(?:ing)? if you)\b",
    re.IGNORECASE,
)
CORRECTION = _any(
    _LEAD + rf"{CORRECTION_OPENING}",
    r"\bno longer\b",
    r"\b(?:changed|switched|moved|changing|switching)\b(?:\s+\w+){0,3}\s+(?:to|from)\b",
    r"(?:\bnot\b|n'?t\b).{1,60}\bany ?more\b",
    r"\b(?:i|we)(?:'ve| have)? (?:stopped|quit|dropped|ditched|got rid of|moved off|"
    r"migrated off|switched away from)\b",
    r"\binstead of\b",
    r"\bis now\b",
)
#: a correction's opening with nothing after it ("Scratch that."), or with an instruction
#: about the work at hand ("Actually, make it three bullets.", "Actually, shorter please."):
#: it corrects a request, and says nothing that lasts unless more follows (see
#: :func:`_corrects_request`)
_CORRECTS_REQUEST = re.compile(
    _LEAD + rf"{CORRECTION_OPENING}[\s,.!:;-]*(?:$|(?:please\s+)?(?:make|change|turn|keep|do|"
    r"redo|try|put|write|rewrite|format|add|remove|drop|cut|shorten|lengthen|expand|fix|undo)"
    r"\s+(?:it|that|this|them|those|these|one)\b|(?:[\w'-]+\s+){0,3}please\W*$)",
    re.IGNORECASE,
)
#: a question mark that ends a sentence, closing quotes and brackets after it
_QUESTION_MARK = re.compile(r"\?[\s\"')\u201d\u2019]*$")
#: a question's last clause after a comma: "…, right?", "…, what about you?"
_TAIL = re.compile(r",\s*(?P<tail>[^,]{1,40}?)\s*\?[\s\"')\u201d\u2019]*$")
#: a tail that asks to confirm what comes before it: "right?", "do we?", "isn't it?"
_CONFIRMING = re.compile(
    r"^(?:right|correct|true|yes|no|yeah|eh|or not|am i right|is that (?:right|correct|true|so)|"
    r"(?:(?:do|does|did|is|are|was|were|have|has|had|would|could|should)(?:n'?t)?|will|won'?t|"
    r"can|can'?t)(?: not)? (?:i|we|you|they|he|she|it|that|there))$",
    re.IGNORECASE,
)
#: "never" that opens an idiom or a report of the past, not a rule or a habit: "Never
#: mind.", "never heard of it", "I never thought of that"
_NEVER = r"never(?!\s*mind\b| again\b| heard\b| seen\b| thought\b| knew\b| been\b| had\b)"
POLICY = _any(
    rf"^(?:please\s+)?(?:always|{_NEVER}|must|do not ever|don'?t ever)\b",
    r"\b(?:you|we|everyone|everybody|all \w+|nobody|no one) (?:must|must not|mustn'?t|shall|"
    r"should always|should never|have to|need to always|may never)\b",
    r"\b(?:every|each|any|all)(?: \w+){1,3} (?:must|must not|mustn'?t|shall|should always|"
    r"should never|has to|have to|may never|needs? to be)\b",
    r"^(?:rule|policy)\s*:",
    r"\b(?:new |house |a )?(?:rules?|policy)(?: for (?:you|us|the \w+))?(?: as of \w+)?\s*:\s*\S",
    # "always"/"never" opening a clause: "For him always use …", "and never use …"
    rf"(?:[,;:]\s*|\b(?:and|please|pls|also|for \w+|in general,?)\s+)(?:always|{_NEVER})\s+"
    r"(?!mind\b)\w+",
    r"\bin general,?\s+(?:please\s+)?(?:keep|use|write|give|make|reply|answer|avoid)\b",
    # a standing instruction: "From now on, answer in bullet points.", "… and pls, from now
    # on give me SQL in code blocks"
    _LEAD + r"(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|"
    r"in (?:the )?future)\b",
    r"(?:[,;]|\b(?:and|please|pls))\s*(?:please\s+|pls\s+)?(?:from now on|going forward)[\s,]+"
    r"(?:please\s+)?[a-z]+",
    r"\bmake sure (?:to|you|that you) (?:always|never)\b",
)
DECISION = _any(
    r"\b(?:i|we)(?:'ve| have)? (?:decided|chosen|agreed|settled on|opted for|picked|chose)\b",
    r"\b(?:i|we)(?:'ll| will) (?:go with|use|stick with|adopt|switch to)\b",
    r"\blet'?s (?:go with|use|stick with|adopt)\b",
    r"(?:^|[,;.]\s*|\bok(?:ay)?,?\s+)going with\b",
    r"\b(?:is|are) (?:locked(?: in)?|final|confirmed|settled)\b",
    r"\brules? for (?:myself|me)\s*:\s*\S",
    r"\b(?:i'?m|we'?re|i am|we are) (?:only|never) (?:going to |taking|using|buying|booking)\b",
    r"\b(?:i'?m|we'?re|i am|we are) \w+ (?:\w+ )?from now on\b",
    # deciding against: "Let's not use MongoDB.", "We're not going with Oracle."
    r"(?:^|\bok(?:ay)?,?\s+)not doing\b",
    r"\b(?:we'?re|i'?m|we are|i am) not doing\b",
    r"\blet'?s not\b",
    r"\b(?:we|i)(?:'re| are|'m| am) not (?:going to )?(?:use|using|go with|going with)\b",
    r"\b(?:we|i)(?: will not|'ll not| won'?t) (?:use|go with|adopt)\b",
    r"\b(?:we'?re|we are|i'?m|i am) going (?:with|to use|to go with)\b",
    r"\bthe decision is\b",
    r"^decision\s*:",
)
#: attitudes, which last: a preference whatever they are about ("wishes" are below)
PREFERENCE = _any(
    r"\bi (?:really |strongly |much )?(?:prefer|like|love|hate|dislike|enjoy|can'?t stand)\b",
    r"\bi (?:don'?t|do not) (?:like|enjoy|care for)\b",
    r"\bmy (?:favou?rite|preferred|preference)\b",
    r"\bi'?d (?:rather|prefer)\b",
    rf"\bi (?:always|{_NEVER}|usually)\b",
    # a prohibition holds until it is lifted
    _LEAD + r"please (?:avoid|don'?t|do not)\b",
    _LEAD + r"(?:don'?t|do not) (?:ever )?(?:use|recommend|suggest|propose|pick|book)\b",
)
#: a wish, which may be for now or for good: see :func:`standing_wish`
WISH = _any(
    r"\bi (?:really |just |also )?want\b",
    r"\bi (?:don'?t|do not) want\b",
    r"\bi(?:'d| would) (?:really )?like\b",
    r"\bplease (?:use|write|keep|call|reply|respond|answer|format)\b",
)
#: a sentence that opens with a wish: one for now is a request, not a belief
_OPENING_WISH = re.compile(_LEAD + f"(?:{WISH.pattern})", re.IGNORECASE)
#: wishes that hold until lifted, whatever they name: "please use the metric system", "I
#: don't want to use Java" (as "please don't …" does; "please write a haiku" is for now)
_HOLDS = _any(
    r"\bi (?:don'?t|do not) want\b",
    r"\bplease (?:use|keep|call|reply|respond|answer|format)\b",
)
#: words that make a wish about how things are done from now on, not about this once
STANDING = _any(
    r"\b(?:always|never|usually|mostly|generally|in general|by default|from now on|"
    r"going forward)\b",
    r"\b(?:from here on|in (?:the )?future|every time|each time|whenever|all the time)\b",
    r"\b(?:any ?more|no more)\b",
)
#: the first word of what a wish asks for, when it names one particular thing
_PARTICULAR = frozenset(
    {"a", "an", "the", "one", "some", "another", "this", "that", "these", "those", "it", "them"}
)
#: a person the wish is for: what comes after says whether it is for now ("help me", "send
#: me the file", "help me with the report") or for good ("tell me when I'm wrong")
_PERSONS = frozenset({"me", "us", "him", "her", "you"})
_FOR_NOW_AFTER_PERSON = _PARTICULAR | {"with", "out", "up"}
RECOMMENDATION = _any(
    r"\bi (?:recommend|suggest|would suggest|would recommend)\b",
    r"\byou (?:could|should|might want to|may want to)\b",
    r"^consider\b",
)
#: an assistant restating what the user holds ("you've decided …", "your favourite …")
#: "you" after a conditional ("Let me know if you want changes") supposes, it does not report
_YOU = r"\byou(?<!\bif you)(?<!\bwhether you)(?<!\bunless you)(?<!\bin case you)"
PARAPHRASE = _any(
    _YOU + r"(?:'ve| have)? (?:decided|chosen|chose|agreed|settled on|picked|opted for)\b",
    _YOU + r" (?:really )?(?:prefer|like|love|hate|dislike|want|always|never|usually)\b",
    _YOU + r"(?:'re| are) (?:going with|using|switching to|thinking about|considering)\b",
    r"\byour (?:favou?rite|preferred|preference|decision|rule)\b",
    r"\bi'?ll (?:remember|keep in mind|note)\b",
)
#: words between a reporter and the verb ("Bob has always said …"), never the reporter
_BETWEEN = "also|just|always|once|apparently|already|even|have|has|had"
#: someone else's words or thoughts, reported: "My boss said we must always use Java" is not
#: the user's rule. The verb must report a clause ("said we …", "told me to …", "said:"): in
#: "Let's go with what you suggested." the decision is the user's. "I said", "we told
#: them", "That said," and "As mentioned," are the speaker's own.
REPORTED = re.compile(
    rf"(?<![\w'])(?!(?:i|we|that|having|{_BETWEEN})\b)[\w']+\s+(?:(?:{_BETWEEN}|keeps|kept)\s+)*"
    r"(?:said|says|saying|told|tells|wrote|writes|thinks|believes|claims|claimed|insists|insisted|"
    r"mentioned|suggested|asked|reckons|announced|reported|texted|emailed|warned)"
    r"(?=\s*[:\"\u201c]|\s+(?:that|to|whether|if|me|us|him|her|them|you|we|i|it|they|he|she|"
    r"this|there|the|a|an|my|our|his|their|its|everyone|everybody|nobody|no one|all|every)\b)"
    r"|^according to\b",
    re.IGNORECASE,
)
#: how chat spells "please"
_PLEASE = re.compile(r"\b(?:pls|plz|plse)\b", re.IGNORECASE)
#: saying the opposite of what is meant: "Sure, let's rewrite it in COBOL, why not.", "I love
#: how the build breaks every Friday.", "Yeah, right."
IRONY = _any(
    r"\bwhy not\s*[.!]*\s*$",
    r"\bwhat could (?:possibly )?go wrong\b",
    r"\byeah,? right\b",
    r"\bi (?:just |really |absolutely )?(?:love|adore) (?:how|it when|that (?:we|they|it))\b",
    r"^(?:oh )?(?:great|wonderful|fantastic|brilliant|perfect),? (?:just|another|more)\b",
)
#: a reaction to what was just said, which holds nothing of its own: "I like that idea!",
#: "Love it.", "I like this one"
REACTION = re.compile(
    _LEAD + r"(?:i (?:really |do |totally )?)?(?:like|love|prefer|dig) (?:that|this|it|yours|"
    r"your \w+|the (?:idea|plan|suggestion|first one|second one|last one))"
    r"(?: (?:idea|plan|one|approach|suggestion|option|version|draft|a lot|too))?\s*[.!]*\s*$",
    re.IGNORECASE,
)
#: "I always …" / "I never …" are the speaker's habits, not rules for others
HABIT = re.compile(rf"^i (?:always|{_NEVER}|usually)\b", re.IGNORECASE)
_REASON = re.compile(r"\s*,?\s+because\s+(?:of\s+)?", re.IGNORECASE)
_LEADING_REASON = re.compile(r"^because\s+(?P<reason>[^,]+),\s*(?P<claim>.+)$", re.IGNORECASE)

#: kinds the rules give a user's sentence, first match wins (hedges and open questions are
#: checked before these: see :func:`classify_user`)
USER_CUES: tuple[tuple[str, re.Pattern[str], Kind], ...] = (
    ("correction", CORRECTION, Kind.correction),
    ("preference", HABIT, Kind.preference),
    ("policy", POLICY, Kind.policy),
    ("decision", DECISION, Kind.decision),
    ("preference", PREFERENCE, Kind.preference),
)

WHY = {
    Kind.preference: "Follow this preference of the user's unless they say otherwise.",
    Kind.decision: "Treat this as decided; do not reopen it without the user.",
    Kind.correction: "This corrects something said earlier; prefer it over the older statement.",
    Kind.policy: "Apply this rule whenever it is relevant.",
    Kind.open_question: "Still undecided: treat it neither as a decision nor as a refusal.",
    Kind.context: "The reason given for a related statement.",
    Kind.fact: "Stated by the user.",
    Kind.observation: "Only the assistant said this; confirm with the user before relying on it.",
    Kind.suggestion: "A suggestion by the assistant, not a decision of the user's.",
}


def classify_user(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a user's sentence, or ``None`` when it carries no belief.

    >>> classify_user("I think we'll use Postgres.")
    ('hedge', <Kind.open_question: 'open_question'>)
    >>> classify_user("Maybe.") is None
    True
    """
    sentence = _PLEASE.sub("please", _mentioned(sentence))
    if IRONY.search(sentence) or REACTION.match(sentence):
        return None
    # a report is looked for in the claim only: "…, because Bob said so" is still the user's
    if REPORTED.search(sentence) and REPORTED.search(_split_reason(sentence)[0]):
        return None
    if _QUESTION_MARK.search(sentence):
        if OPEN_QUESTION.search(sentence):
            return "question", Kind.open_question
        # a question asserts nothing, whatever words it holds: "Actually, what time is it in
        # Tokyo?" is no correction, "What are you thinking about?" no hedge
        if QUESTION.match(sentence) or REQUEST.match(sentence):
            return None
        return _asked(sentence)
    return _stated(sentence)


def _asked(sentence: str) -> tuple[str, Kind] | None:
    """A question that opens as a statement: at most a hedge, unless the statement is whole
    before a question of its own.

    "We no longer use Jenkins, right?" and "We moved to Oslo?" ask to confirm what they say:
    an open question if that has a cue. "I prefer tabs, what about you?" and "Always use
    tabs, ok?" say it, then ask something else.
    """
    tail = _TAIL.search(sentence)
    if tail is not None:
        said = _stated(sentence[: tail.start()])
        if _CONFIRMING.match(tail["tail"]):
            return None if said is None else ("question", Kind.open_question)
        if said is not None:
            return said
    said = _stated(_QUESTION_MARK.sub("", sentence))
    return None if said is None else ("question", Kind.open_question)


def _stated(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a sentence that asks nothing (see :func:`classify_user`)."""
    # a request asserts nothing: "I'd like a cup of tea" is no preference, "Actually, make it
    # three bullets" no correction
    standing = standing_wish(sentence)
    if (
        REQUEST.match(sentence)
        or (standing is False and _OPENING_WISH.match(sentence))
        or _corrects_request(sentence)
    ):
        return None
    if DELIBERATION.search(sentence):
        return "hedge", Kind.open_question
    found = _cue(sentence, standing=bool(standing))
    if SOFTENER.search(sentence) and (found is not None or PLAN.search(sentence)):
        return "hedge", Kind.open_question
    return found


def _corrects_request(sentence: str) -> bool:
    """Whether a correction only corrects a request: its opening alone ("Scratch that."), or
    with an instruction about the work at hand and no cue of its own after it ("Actually,
    make it three bullets.", but not "Actually, make it a rule: always use tabs.")."""
    opening = _CORRECTS_REQUEST.match(sentence)
    if opening is None:
        return False
    return not STANDING.search(sentence) and _cue(sentence[opening.end() :], standing=False) is None


def _cue(sentence: str, *, standing: bool) -> tuple[str, Kind] | None:
    """The first of :data:`USER_CUES` the sentence has, or its standing wish; hedges aside."""
    for cue, pattern, kind in USER_CUES:
        if pattern.search(sentence):
            return cue, kind
    return ("preference", Kind.preference) if standing else None


def standing_wish(sentence: str) -> bool | None:
    """Whether the wish in ``sentence`` is a standing preference; ``None`` without a wish.

    A wish ("I want …", "I'd like …", "please use …") is a preference when it is about a
    kind of thing or a way of doing things — "my summaries in bullet points", "answers in
    German", "British spelling" — or says so ("always", "from now on", "by default"). It is
    a request for now when what it asks for is one particular thing or task, named with an
    article, a demonstrative or a pronoun ("a cup of tea", "you to write a haiku", "the
    report", "that"; "help me", "help me with …"), or is the speaker's own act ("I'd like to
    book a table"): "I want you to help me" asks for now, "I want you to tell me when I'm
    wrong" holds.

    >>> standing_wish("I'd like a cup of tea."), standing_wish("I'd like my summaries short.")
    (False, True)
    """
    wish = WISH.search(sentence)
    if wish is None:
        return None
    if STANDING.search(sentence) or _HOLDS.search(sentence):
        return True
    words = re.findall(r"[\w']+", sentence[wish.end() :].lower())
    if words[:2] == ["you", "to"]:
        words = words[3:]  # "I want you to write …": what is to be written
    elif words[:1] == ["to"]:
        return False
    if words[:1] and words[0] in _PERSONS:
        words = words[1:]  # "… help me", "… tell me when I'm wrong": what for the person
        return bool(words) and words[0] not in _FOR_NOW_AFTER_PERSON
    return bool(words) and words[0] not in _PARTICULAR


def _is_assistant_cue(sentence: str) -> str | None:
    if RECOMMENDATION.search(sentence):
        return "recommendation"
    if PARAPHRASE.search(sentence) or classify_user(sentence) is not None:
        return "paraphrase"
    return None


def _user_statement(text: str, cue: str, kind: Kind) -> Statement:
    hedged = kind is Kind.open_question
    return Statement(
        text=text,
        kind=kind,
        speaker="user",
        status=Status.exploratory if hedged else Status.active,
        epistemic_status=EpistemicStatus.floated if hedged else EpistemicStatus.reported,
        trust=USER_TRUST,
        confidence=0.5 if hedged else 0.8,
        importance=0.7 if kind in (Kind.policy, Kind.decision, Kind.correction) else 0.5,
        priority=Priority.high if kind is Kind.policy else Priority.normal,
        why_it_matters=WHY.get(kind),
        cue=cue,
    )


def _assistant_statement(text: str, cue: str) -> Statement:
    kind = Kind.suggestion if cue == "recommendation" else Kind.observation
    return Statement(
        text=ASSISTANT_PREFIX + text,
        kind=kind,
        speaker="assistant",
        status=Status.inferred,
        epistemic_status=EpistemicStatus.unverified,
        trust=ASSISTANT_TRUST,
        confidence=0.4,
        importance=0.3,
        why_it_matters=WHY[kind],
        cue=cue,
    )


def _split_reason(sentence: str) -> tuple[str, str | None]:
    """``(claim, reason)`` when a sentence gives a reason ("because"), else ``(sentence, None)``."""
    leading = _LEADING_REASON.match(sentence)
    if leading:
        return _tidy(leading["claim"]), _tidy(leading["reason"])
    parts = _REASON.split(sentence, maxsplit=1)
    if len(parts) == 2 and _tidy(parts[0]) and _tidy(parts[1]):
        return _tidy(parts[0]), _tidy(parts[1])
    return _tidy(sentence), None


def _with_reason(
    out: list[Statement], claim: Statement, reason_text: str | None, *, speaker: str
) -> None:
    out.append(claim)
    if reason_text is None:
        return
    if speaker == "user":
        reason = replace(
            _user_statement(reason_text, "reason", Kind.context),
            kind=Kind.context,
            status=claim.status,
            epistemic_status=claim.epistemic_status,
            importance=0.4,
            priority=Priority.normal,
            caused=len(out) - 1,
        )
    else:
        reason = replace(_assistant_statement(reason_text, "reason"), caused=len(out) - 1)
    out.append(reason)


def _remembered(out: list[Statement], said: str) -> None:
    """Append what a ``/remember`` command says: pinned, in the user's words, with its reason.

    A reason ("… because …") is split off and linked to the claim as any sentence's is, so
    the pinned belief is the thing to remember and the reason its context.
    """
    claim_text, reason_text = _split_reason(_tidy(said))
    if not claim_text:
        return
    found = classify_user(claim_text)
    cue, kind = found if found else ("remember", Kind.fact)
    statement = _user_statement(claim_text, cue, kind)
    claim = replace(
        statement,
        pinned=True,
        trust=REMEMBER_TRUST,
        importance=0.9,
        priority=Priority.high,
        epistemic_status=(
            statement.epistemic_status if kind is Kind.open_question else EpistemicStatus.confirmed
        ),
        why_it_matters=" ".join([REMEMBER_WHY, *([WHY[kind]] if kind is not Kind.fact else [])]),
        cue="remember",
    )
    _with_reason(out, claim, reason_text, speaker="user")


class RuleExtractor:
    """The deterministic default extractor (see the module docstring for its rules)."""

    def extract(self, role: str, content: str) -> list[Statement]:
        """The statements of one message by ``role``, in the order they were said."""
        role = role.lower()
        if role in USER_ROLES:
            return self._user(content)
        if role in ASSISTANT_ROLES:
            return self._assistant(content)
        return []

    def _user(self, content: str) -> list[Statement]:
        out: list[Statement] = []
        content = "\n".join(own_lines(content))  # a quoted or pasted /remember is no command
        commands = list(_REMEMBER.finditer(content)) if "/remember" in content.lower() else []
        said = content[: commands[0].start()] if commands else content
        for sentence in (s for line in said.splitlines() for s in _split(line)):
            found = classify_user(sentence)
            if found is None:
                continue
            cue, kind = found
            claim_text, reason_text = _split_reason(sentence)
            if not claim_text:
                continue
            _with_reason(out, _user_statement(claim_text, cue, kind), reason_text, speaker="user")
        # "/remember X": all up to the next command (or the end) is one statement, pinned
        for i, command in enumerate(commands):
            end = commands[i + 1].start() if i + 1 < len(commands) else len(content)
            _remembered(out, content[command.end() : end])
        return _unique(out)

    def _assistant(self, content: str) -> list[Statement]:
        out: list[Statement] = []
        for sentence in sentences(content):
            if sentence.endswith("?"):
                continue  # the assistant asking is nobody's belief
            cue = _is_assistant_cue(sentence)
            if cue is None:
                continue
            claim_text, reason_text = _split_reason(sentence)
            if not claim_text:
                continue
            _with_reason(
                out, _assistant_statement(claim_text, cue), reason_text, speaker="assistant"
            )
        return _unique(out)


def _unique(statements: list[Statement]) -> list[Statement]:
    """Drop a repeated text within one turn (its id would repeat), keeping reason links right."""
    seen: dict[str, int] = {}
    moved: dict[int, int] = {}
    out: list[Statement] = []
    for i, s in enumerate(statements):
        if s.text in seen:
            moved[i] = seen[s.text]
            continue
        seen[s.text] = moved[i] = len(out)
        out.append(s)
    return [s if s.caused is None else replace(s, caused=moved[s.caused]) for s in out]


# -- optional LLM extractor ----------------------------------------------------------------

_PROMPT = """You extract durable beliefs from one chat message by the {role}.
Return only JSON: {{"statements": [{{"text": "...", "kind": "...", "reason": "..." or null}}]}}.
kind is one of: preference, decision, correction, policy, open_question, fact.
Keep the speaker's own words. A hedge ("thinking about", "haven't decided", "maybe") is an
open_question, never a decision. Skip small talk, requests and questions to the assistant.
Return {{"statements": []}} when there is nothing durable."""

_LLM_KINDS = {
    "preference": Kind.preference,
    "decision": Kind.decision,
    "correction": Kind.correction,
    "policy": Kind.policy,
    "open_question": Kind.open_question,
    "fact": Kind.fact,
}


class LLMExtractor:
    """Extraction by an OpenAI-compatible chat endpoint, with the speaker rules enforced after.

    Whatever the model answers, an assistant's statement becomes an inferred, low-trust
    observation and a user's hedge stays an open question (the rules re-check each text).
    On any failure of the endpoint (down, timeout, malformed answer) the message is
    extracted by ``fallback`` instead, and the import goes on.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1``.
        model: the model name the endpoint expects.
        api_key: sent as a bearer token when given.
        timeout: seconds per request.
        fallback: the extractor used when the endpoint fails (default: the rules).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        fallback: Extractor | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.fallback = fallback or RuleExtractor()
        self.failures = 0

    def extract(self, role: str, content: str) -> list[Statement]:
        """The statements of one message by ``role``; the fallback's when the endpoint fails."""
        role = role.lower()
        if role not in USER_ROLES | ASSISTANT_ROLES:
            return []
        if role in USER_ROLES and _REMEMBER.search("\n".join(own_lines(content))):
            return self.fallback.extract(role, content)  # a command, not prose to interpret
        try:
            items = self._ask(role, content)
        except (OSError, ValueError, KeyError, TypeError) as e:
            self.failures += 1
            log.warning("LLM extractor failed (%s); using the rules for this message", e)
            return self.fallback.extract(role, content)
        return _unique([s for item in items for s in self._speaker_true(role, item)])

    def _ask(self, role: str, content: str) -> list[dict[str, Any]]:
        body = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": _PROMPT.format(role=role)},
                {"role": "user", "content": content},
            ],
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(  # noqa: S310  (the URL is the operator's own setting)
            self.url, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
            answer = json.loads(response.read())
        text = answer["choices"][0]["message"]["content"]
        statements = json.loads(text)["statements"]
        if not isinstance(statements, list):
            raise ValueError("'statements' is not a list")
        return [s for s in statements if isinstance(s, dict) and isinstance(s.get("text"), str)]

    def _speaker_true(self, role: str, item: dict[str, Any]) -> list[Statement]:
        text = _tidy(item["text"])
        if not text:
            return []
        reason = item.get("reason")
        reason_text = _tidy(reason) if isinstance(reason, str) and reason.strip() else None
        out: list[Statement] = []
        if role in ASSISTANT_ROLES:
            cue = "recommendation" if RECOMMENDATION.search(text) else "paraphrase"
            _with_reason(out, _assistant_statement(text, cue), reason_text, speaker="assistant")
            return out
        kind = _LLM_KINDS.get(str(item.get("kind")), Kind.fact)
        if HEDGE.search(text) or OPEN_QUESTION.search(text):
            kind = Kind.open_question  # a hedge stays a hedge, whatever the model said
        _with_reason(out, _user_statement(text, "llm", kind), reason_text, speaker="user")
        return out


def extract_all(extractor: Extractor, messages: Sequence[tuple[str, str]]) -> list[Statement]:
    """Every statement of several ``(role, content)`` messages, in order (for tests and tools)."""
    return [s for role, content in messages for s in extractor.extract(role, content)]
