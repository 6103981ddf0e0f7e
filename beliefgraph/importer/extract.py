"""Speaker-true extraction: which statements of a conversation turn become beliefs (DESIGN §6).

The default :class:`RuleExtractor` is deterministic: the same turn always gives the same
statements, which is what makes imports idempotent and resumable. It reads each sentence of
a turn and keeps those with a clear cue (and, of a sentence with none that it does not
refuse, what a fitted reader keeps: see below):

=====================  ==============================================  ==================
cue                    examples                                        kind (user turns)
=====================  ==============================================  ==================
``/remember …``        "/remember the spare key is under the mat"      pinned; its own cue
hedge / open question  "thinking about", "haven't decided",            ``open_question``
                       "can't decide", "we may switch …"; a
                       softener ("maybe", "I think",
                       "tentatively", "not 100% sure") with a
                       cue below or a plan of the speaker's
correction             "actually …", "no longer …", "changed to …",    ``correction``
                       "… now, not …", "got pushed to …"
policy / rule          "always …", "never …", "we must …", "please     ``policy``
                       don't …", "please stop …", "from now on",
                       "please use …" (a standing wish asked with
                       "please": see :func:`standing_wish`)
decision               "we decided …", "let's go with …", "we're       ``decision``
                       staying on …", "Shark it is", "I'm
                       switching to …", "we're driving, not flying",
                       "I'm not renewing …", "end of discussion"
preference             "I prefer …", "I'd rather …", "I want … by      ``preference``
                       default", "I'm a street food person", "im
                       lactose intolerant", "… is non negotiable"
a course taken, as     "we'll crate train", "we're flying", "booking   ``decision``
chat says it           the cabin", "ordered the miele" (checked
                       last; never an assistant's)
=====================  ==============================================  ==================

A user's sentence is read in this order (:mod:`~beliefgraph.importer.kinds`, which holds
:func:`classify_user` and :func:`standing_wish`): words in quotation marks
are blanked out; a claim that reports someone else ("My boss said …") yields nothing; a
question, even one that deliberates a choice ("should we …?"), a request ("can you …"), a
wish for now ("I'd like a cup of tea") or a correction of a request ("Actually, make it three
bullets.", "Scratch that.") yields nothing, and so does a statement asked back ("We no longer
use Jenkins, right?"), while one followed by a question of its own ("I prefer tabs, what
about you?") or by "ok?" stands as said, and a rule asked for ("from now on can you flag
anything high in sodium?", "can you always …?") is a rule; a hedge
that says the speaker is still deciding ("haven't decided", "can't decide", "we may switch")
is an open question; then the first cue of the table below the hedges ("I always/never …"
is the speaker's habit, a preference, before the rules) or a standing wish; and a softener
("maybe", "I think", "tentatively") turns a cue, or a plan of the speaker's ("let's …", "we
should …"), into an open question. So "I'm thinking about making you a page someday but
haven't decided" is an open question — never a decision, and never rewritten as "not yet":
the text of a belief is always the speaker's own words — and "I think we'll use Postgres"
is one too, while a softener on its own ("Maybe.") yields nothing. A sentence that joins two
claims with a cue each ("I prefer aisle seats, and never book me a red-eye.") gives two
beliefs; after a bare comma only when the second is of another kind, and a part with no cue
of its own stays with the claim before it (:func:`~beliefgraph.importer.claims.claims`).

To the rules, questions, requests and idioms assert nothing: "Actually, what time is it in
Tokyo?" is no correction, "Never mind." no rule, "should we rename the project?" no open
question (what the speaker is still deciding they say: "haven't decided whether to rename
it"). A wish ("I want …", "I'd like …", "please use …") is a preference when it is about how
things are done in general ("I'd like my summaries in bullet points", "… by default") - a
rule for the assistant when it says "please" ("please use the metric system") - and a
request for now, which yields nothing, when it asks for one particular thing ("I'd like a
cup of tea"): see :func:`standing_wish`.

Speaker-true: only the user's words carry the user's authority. An assistant sentence with
one of the cues above is at most an ``observation`` (or a ``suggestion`` when it
recommends), status ``inferred``, low trust, its text marked as the assistant's; it is never
a decision, preference, policy or correction. System and tool messages yield nothing.
Nor is anyone's belief what a speaker only quotes or reports: ``>`` lines and pasted
material ("Here is the email from Bob:", "Translate to German: …") are skipped (see
:func:`sentences`), words in quotation marks carry no cue, and "My boss said we must always
use Java" is the boss's rule, not the user's, so it yields nothing.

A user's sentence with no cue of the table, and that the rules do not refuse either (no
question, request, wish for now, hedge, irony, reaction or report: see
:func:`~beliefgraph.importer.kinds.refused`), is read by a reader fitted on lines written
blind (:mod:`~beliefgraph.importer.fitted`): a clause of four to forty words that it reads as
a decision, preference, rule, correction or open question, with little doubt, is kept in the
speaker's words, cue ``fitted`` ("we def want tokyo and kyoto for the trip"). What the rules
keep or refuse, it never changes.

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

import logging
from dataclasses import replace
from typing import Any

from beliefgraph.errors import LLMUnavailable
from beliefgraph.importer.claims import (
    assistant_statement,
    claims,
    picked,
    remembered,
    user_statement,
    with_reason,
)
from beliefgraph.importer.cues import HEDGE, OPEN_QUESTION, RECOMMENDATION
from beliefgraph.importer.fitted import Reader, default_reader
from beliefgraph.importer.kinds import is_assistant_cue, refused
from beliefgraph.importer.picks import picks
from beliefgraph.importer.sentences import (
    REMEMBER,
    own_lines,
    said_and_remembered,
    sentences,
    split_reason,
    tidy,
)
from beliefgraph.importer.statements import ASSISTANT_ROLES, USER_ROLES, Extractor, Statement
from beliefgraph.llm import ChatEndpoint
from beliefgraph.models import Kind

log = logging.getLogger(__name__)


class RuleExtractor:
    """The deterministic default extractor (see the module docstring for its rules).

    Args:
        reader: the fitted reader asked of what the rules leave
            (:mod:`~beliefgraph.importer.fitted`; ``fitted.json``'s, read when first asked, if
            not given).
        rules_only: read by the rules alone, asking no reader.
    """

    def __init__(self, reader: Reader | None = None, *, rules_only: bool = False) -> None:
        self._reader = reader
        self._rules_only = rules_only

    @property
    def reader(self) -> Reader:
        """The fitted reader: the one given, or ``fitted.json``'s."""
        if self._reader is None:
            self._reader = default_reader()
        return self._reader

    def extract(self, role: str, content: str, replying_to: str | None = None) -> list[Statement]:
        """The statements of one message by ``role``, in the order they were said;
        ``replying_to`` is the assistant's message it answers, where known."""
        role = role.lower()
        if role in USER_ROLES:
            return self._user(content, replying_to)
        if role in ASSISTANT_ROLES:
            return self._assistant(content)
        return []

    def _user(self, content: str, replying_to: str | None) -> list[Statement]:
        out: list[Statement] = []
        said, to_remember = said_and_remembered(content)
        for whole in said:
            offers = picks(whole, replying_to) if replying_to else []
            for part, offer in offers:
                if not claims(part):
                    out.append(picked(part, offer))
            found = claims(whole)
            for sentence, (cue, kind) in found:
                claim_text, reason_text = split_reason(sentence)
                if not claim_text:
                    continue
                with_reason(out, user_statement(claim_text, cue, kind), reason_text, speaker="user")
            if not found and not offers:
                self._unmarked(out, whole)
        # "/remember X": all up to the next command (or the end) is one statement, pinned
        for text in to_remember:
            remembered(out, text)
        return _unique(out)

    def _unmarked(self, out: list[Statement], sentence: str) -> None:
        """Append what the fitted reader keeps of a sentence in which the rules found no
        claim, unless they refuse it (or it holds a ``/remember`` that is no command)."""
        if self._rules_only or refused(sentence) or "/remember" in sentence.lower():
            return
        for text, kind in self.reader.kept(sentence):
            claim_text, reason_text = split_reason(text)
            if claim_text:
                statement = user_statement(claim_text, "fitted", kind)
                with_reason(out, statement, reason_text, speaker="user")

    def _assistant(self, content: str) -> list[Statement]:
        out: list[Statement] = []
        for sentence in sentences(content):
            if sentence.endswith("?"):
                continue  # the assistant asking is nobody's belief
            cue = is_assistant_cue(sentence)
            if cue is None:
                continue
            claim_text, reason_text = split_reason(sentence)
            if not claim_text:
                continue
            with_reason(out, assistant_statement(claim_text, cue), reason_text, speaker="assistant")
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
Return {{"statements": []}} when there is nothing durable.
A message that answers the assistant comes after "Answering the assistant's:" and the
assistant's words, for context only: extract nothing from them ("fargate." after options
offered is the user's decision to use Fargate)."""

#: characters of the assistant's message a model is shown as context
_CONTEXT = 1000

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
        self.endpoint = ChatEndpoint(base_url, model, timeout, api_key)
        self.fallback = fallback or RuleExtractor()
        self.failures = 0

    def extract(self, role: str, content: str, replying_to: str | None = None) -> list[Statement]:
        """The statements of one message by ``role`` (answering ``replying_to``, the
        assistant's message, where known); the fallback's when the endpoint fails."""
        role = role.lower()
        if role not in USER_ROLES | ASSISTANT_ROLES:
            return []
        if role in USER_ROLES and REMEMBER.search("\n".join(own_lines(content))):
            # a command, not prose to interpret
            return self.fallback.extract(role, content, replying_to)
        try:
            items = self._ask(role, content, replying_to if role in USER_ROLES else None)
        except (LLMUnavailable, ValueError, KeyError, TypeError) as e:
            self.failures += 1
            log.warning("LLM extractor failed (%s); using the rules for this message", e)
            return self.fallback.extract(role, content, replying_to)
        return _unique([s for item in items for s in self._speaker_true(role, item)])

    def _ask(self, role: str, content: str, replying_to: str | None) -> list[dict[str, Any]]:
        if replying_to:
            content = f"Answering the assistant's: {replying_to[:_CONTEXT]}\n\n{content}"
        statements = self.endpoint.ask_json(_PROMPT.format(role=role), content)["statements"]
        if not isinstance(statements, list):
            raise ValueError("'statements' is not a list")
        return [s for s in statements if isinstance(s, dict) and isinstance(s.get("text"), str)]

    def _speaker_true(self, role: str, item: dict[str, Any]) -> list[Statement]:
        text = tidy(item["text"])
        if not text:
            return []
        reason = item.get("reason")
        reason_text = tidy(reason) if isinstance(reason, str) and reason.strip() else None
        out: list[Statement] = []
        if role in ASSISTANT_ROLES:
            cue = "recommendation" if RECOMMENDATION.search(text) else "paraphrase"
            with_reason(out, assistant_statement(text, cue), reason_text, speaker="assistant")
            return out
        kind = _LLM_KINDS.get(str(item.get("kind")), Kind.fact)
        if HEDGE.search(text) or OPEN_QUESTION.search(text):
            kind = Kind.open_question  # a hedge stays a hedge, whatever the model said
        with_reason(out, user_statement(text, "llm", kind), reason_text, speaker="user")
        return out
