"""Speaker-true extraction: what a turn yields, and what it must never yield."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from beliefgraph.importer.extract import LLMExtractor, RuleExtractor
from beliefgraph.importer.sentences import sentences
from beliefgraph.importer.statements import ASSISTANT_PREFIX, ASSISTANT_TRUST, Statement
from beliefgraph.models import AUTHORITY_KINDS, EpistemicStatus, Kind, Status

RULES = RuleExtractor()


def one(role: str, content: str) -> Statement:
    found = RULES.extract(role, content)
    assert len(found) == 1, found
    return found[0]


# -- hedges stay hedges --------------------------------------------------------------------


def test_the_page_hedge_is_an_open_question_in_the_users_words() -> None:
    said = "I'm thinking about making you a page someday but haven't decided"
    s = one("user", said + ".")
    assert s.kind is Kind.open_question
    assert s.status is Status.exploratory
    assert s.epistemic_status is EpistemicStatus.floated
    assert s.text == said + "."  # never rewritten, never "not yet"
    assert "not yet" not in s.text.lower()


@pytest.mark.parametrize(
    "said",
    [
        "I haven't decided yet whether we move to Berlin.",
        "We have not decided on the database.",
        "Maybe we should use Postgres.",
        "I'm considering switching to Rust.",
        "I might switch the logo to blue.",
        "I'm not sure we need a cache.",
        "Perhaps we'll go with the blue logo.",
        "I'm on the fence about Kafka.",
    ],
)
def test_hedges_are_never_decisions(said: str) -> None:
    s = one("user", said)
    assert s.kind is Kind.open_question
    assert s.kind not in AUTHORITY_KINDS


@pytest.mark.parametrize(
    "said",
    [
        "Let's go with Postgres for now, but I'm not 100% sure.",
        "I think we'll use Postgres.",
        "Tentatively, let's use Postgres.",
        "I can't decide between Vue and React.",
        "We may switch to Vue.",
    ],
)
def test_hedged_and_undecided_choices_are_open_questions(said: str) -> None:
    s = one("user", said)
    assert (s.kind, s.status, s.epistemic_status) == (
        Kind.open_question,
        Status.exploratory,
        EpistemicStatus.floated,
    )
    assert s.text == said


@pytest.mark.parametrize(
    "said",
    ["We decided to use Postgres.", "Let's go with Postgres for now.", "We'll use Postgres."],
)
def test_an_unhedged_choice_is_still_a_decision(said: str) -> None:
    assert one("user", said).kind is Kind.decision


@pytest.mark.parametrize(
    "said",
    [
        "we're not crating her.",
        "im not joining a gym.",
        "I'm definitely not renting a car in Lisbon.",
        "only applying to remote roles btw.",
        "we're only inviting family.",
    ],
)
def test_a_course_refused_or_kept_to_one_way_is_a_decision(said: str) -> None:
    assert one("user", said).kind is Kind.decision


@pytest.mark.parametrize(
    "said", ["I'm not feeling great.", "we're not kidding.", "I'm only asking."]
)
def test_a_state_or_a_word_of_talk_denied_is_no_decision(said: str) -> None:
    assert [s for s in RULES.extract("user", said) if s.kind is Kind.decision] == []


@pytest.mark.parametrize(
    "said",
    [
        "i climb at the wall near my office mondays and wednesdays.",
        "I study 20 min every day on the train.",
        "we do one big costco run every month.",
    ],
)
def test_a_habit_told_with_how_often_is_a_preference(said: str) -> None:
    assert one("user", said).kind is Kind.preference


@pytest.mark.parametrize(
    "said", ["I ran twice a week last year.", "we go back and forth every night about it."]
)
def test_what_was_done_or_a_going_back_and_forth_is_no_habit(said: str) -> None:
    assert [s for s in RULES.extract("user", said) if s.kind is Kind.preference] == []


@pytest.mark.parametrize(
    ("role", "said"),
    [("user", "Maybe."), ("user", "I think you're right."), ("assistant", "Maybe later.")],
)
def test_a_softener_with_nothing_to_soften_yields_nothing(role: str, said: str) -> None:
    assert RULES.extract(role, said) == []


def test_a_request_is_not_an_open_question() -> None:
    assert RULES.extract("user", "Can you help me write a cover letter?") == []


# -- what a user says is the user's --------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I prefer tabs over spaces.", Kind.preference),
        ("I'd rather take the train.", Kind.preference),
        ("Please use British spelling.", Kind.policy),
        ("I always drink my coffee black.", Kind.preference),
        ("We decided to use Postgres.", Kind.decision),
        ("Let's go with the blue logo.", Kind.decision),
        ("Actually, the Wi-Fi password changed to tulip-99.", Kind.correction),
        ("We no longer use Jenkins.", Kind.correction),
        ("Always run the tests before pushing.", Kind.policy),
        ("Never deploy on Fridays.", Kind.policy),
        ("Every laptop must have disk encryption enabled.", Kind.policy),
    ],
)
def test_user_cues(said: str, kind: Kind) -> None:
    s = one("user", said)
    assert s.kind is kind
    assert s.speaker == "user"
    assert s.status is Status.active
    assert s.text == said


@pytest.mark.parametrize(
    "said",
    [
        "The office Wi-Fi password is tulip-42.",
        "My dentist is Dr Patel.",
        "Our fiscal year ends on June 30.",
        "We use Postgres for the events service.",
        "I live in Leeds.",
    ],
)
def test_a_plain_fact_of_the_users_with_a_value_is_kept(said: str) -> None:
    s = one("user", said)
    assert (s.kind, s.speaker, s.status, s.text) == (Kind.fact, "user", Status.active, said)


@pytest.mark.parametrize(
    "said",
    [
        "I think the standup is at 9am.",  # hedged
        "My trainer says anything over 200 is basically poison.",  # someone else's word
        "The build is broken again.",  # nothing to remember it by
        "Is the standup at 9am?",
        "I love how the build breaks every Friday.",
    ],
)
def test_a_hedged_reported_or_valueless_statement_is_no_fact(said: str) -> None:
    assert [s for s in RULES.extract("user", said) if s.kind is Kind.fact] == []


def test_small_talk_and_requests_yield_nothing() -> None:
    assert RULES.extract("user", "Hi there! How are you? Can you summarise this article?") == []


@pytest.mark.parametrize(
    "said",
    [
        "Never mind.",
        "Never mind, I'll do it myself.",
        "Actually, can you summarise that in three bullets?",
        "Actually, can you summarise that in three bullets.",
        "Actually, what time is it in Tokyo?",
        "What is now the best option?",
        "Do I always need to sign in?",
        "I want you to write a haiku about autumn.",
        "I'd like a cup of tea.",
        "Actually, I'd like a cup of tea.",
        "Please write a haiku about autumn.",
        "I'd like to book a table.",
        "What are you thinking about?",  # a word of deliberation in a question asks
        "I was wondering if you could help.",
        "I want you to help me.",
        "I want you to help me with the report.",
        "I want you to keep it short.",
        "I'd like you to format it as a table.",
        # a correction of a request is a request: nothing lasts
        "Actually, make it three bullets.",
        "Actually, shorter please.",
        "Scratch that.",
        "Correction:",
    ],
)
def test_everyday_requests_and_questions_are_no_beliefs(said: str) -> None:
    assert RULES.extract("user", said) == []


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("Never push to main.", Kind.policy),
        ("Never mind, we decided to use Postgres.", Kind.decision),
        ("I never drink coffee after noon.", Kind.preference),
        ("Actually, my Wi-Fi password changed to X.", Kind.correction),
        ("Actually, the meeting is on Tuesday.", Kind.correction),
        ("The password is now hunter2.", Kind.correction),
        ("We decided to use Postgres, can you set it up?", Kind.decision),
        ("I prefer tea.", Kind.preference),
        ("I'd like my summaries in bullet points.", Kind.preference),
        ("I want answers in German from now on.", Kind.policy),
        ("I want you to always answer in German.", Kind.preference),
        ("I don't want emojis in answers.", Kind.preference),
        ("Please don't use emojis.", Kind.policy),
        ("Please call me Sam.", Kind.policy),
        ("Please use the metric system.", Kind.policy),  # holds whatever it names
        ("I don't want to use Java.", Kind.preference),
        ("I just said we must always use Java.", Kind.policy),  # the speaker's own report
        ("I want you to call me Sam.", Kind.preference),
        ("I want you to ask me before deleting any files.", Kind.preference),
        ("I'd like you to tell me when I'm wrong.", Kind.preference),
        # a correction that says more than how to redo the work at hand still says it
        ("Actually, make it a rule: always use tabs.", Kind.correction),
        ("Actually, turn it off, I hate autocomplete.", Kind.correction),
        ("Actually, no more emojis please.", Kind.correction),
        ("Update, the staging server moved to Oslo.", Kind.correction),
        ("Update: the staging server moved to Oslo.", Kind.correction),
        ("Sorry, I meant Tuesday.", Kind.correction),
        # a question after a statement leaves it as said, and so does checking it was heard
        ("I prefer tabs, what about you?", Kind.preference),
        ("We decided on Postgres, did you know?", Kind.decision),
        ("Always use tabs, ok?", Kind.policy),
        ("We decided to use Postgres, sound good?", Kind.decision),
        ("I prefer tabs, you?", Kind.preference),
    ],
)
def test_statements_beside_requests_keep_their_kind(said: str, kind: Kind) -> None:
    assert one("user", said).kind is kind


@pytest.mark.parametrize(
    ("role", "said"),
    [
        ("user", "Here is the email from Bob:\n> We decided to cancel the contract."),
        ("user", "Here is the email from Bob:\nHi all,\nWe decided to cancel the contract.\nBob"),
        ("user", 'Translate to German: "I prefer the red car, we decided to buy it."'),
        ("user", 'Translate "We decided to cancel. I prefer tea." into French.'),
        ("user", "My boss said we must always use Java."),
        ("user", "My boss wrote:\nWe must always use Java."),
        ("user", "According to the docs, we must always pin versions."),
        ("assistant", "Here is the draft email:\nWe decided to cancel the contract."),
        ("user", "Bob has always said we must use Java."),
        # a command quoted, pasted or in code is no command
        ("user", "Here is the email from Bob:\n/remember we decided to cancel the contract"),
        ("user", "> Bob: ok. /remember we must use Java"),
        ("user", "```\n/remember the admin password is x\n```"),
        ("user", "~~~\n/remember the admin password is x\n~~~"),
        ("user", "Run this:\n\n    /remember the admin password is x"),
        ("user", "Type `/remember I prefer tabs` to save it."),
    ],
)
def test_quoted_pasted_and_reported_words_are_not_the_speakers(role: str, said: str) -> None:
    assert RULES.extract(role, said) == []


@pytest.mark.parametrize(
    ("said", "kind", "text"),
    [
        (
            "Here is the email from Bob:\n> We decided to cancel.\nWe decided to renew it.",
            Kind.decision,
            "We decided to renew it.",
        ),
        ('Bob said "we decided to cancel". I prefer tea.', Kind.preference, "I prefer tea."),
        ('I prefer "Dear Sir" in letters.', Kind.preference, 'I prefer "Dear Sir" in letters.'),
        ('Always use "snake_case" for names.', Kind.policy, 'Always use "snake_case" for names.'),
        ("Here are my rules:\n- Never push to main.", Kind.policy, "Never push to main."),
        ("As I said, we must always use Java.", Kind.policy, "As I said, we must always use Java."),
        ("That said, we decided on Go.", Kind.decision, "That said, we decided on Go."),
        ("Let's use what Bob suggested.", Kind.decision, "Let's use what Bob suggested."),
    ],
)
def test_the_speakers_own_words_beside_quotes_still_count(said: str, kind: Kind, text: str) -> None:
    s = one("user", said)
    assert (s.kind, s.text) == (kind, text)


def test_a_reported_reason_does_not_hide_the_claim() -> None:
    claim, reason = RULES.extract("user", "We chose Go because the team said it is faster.")
    assert (claim.kind, claim.text) == (Kind.decision, "We chose Go")
    assert (reason.kind, reason.caused) == (Kind.context, 0)


def test_sentences_keep_a_quotation_whole_and_drop_quoted_lines() -> None:
    said = 'He wrote "Done. Ship it." to me. We left.\n> quoted line\nBye.'
    assert sentences(said) == ['He wrote "Done. Ship it." to me.', "We left.", "Bye."]


def test_remember_is_pinned_and_keeps_the_words() -> None:
    s = one("user", "/remember the spare key is under the blue mat")
    assert s.pinned
    assert s.text == "the spare key is under the blue mat"
    assert s.kind is Kind.fact
    assert s.epistemic_status is EpistemicStatus.confirmed
    assert s.trust > 0.9


def test_remember_of_a_hedge_is_a_pinned_open_question() -> None:
    s = one("user", "/remember I haven't decided on the venue")
    assert s.pinned
    assert s.kind is Kind.open_question


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("/remember my locker is 42", "my locker is 42"),
        ("ok\n/remember the gate code is 4821", "the gate code is 4821"),
        ("Hi! /remember my locker is 42", "my locker is 42"),
        ("Thanks. /remember my locker is 42", "my locker is 42"),
    ],
)
def test_remember_counts_at_a_line_start_or_after_a_greeting(said: str, text: str) -> None:
    s = one("user", said)
    assert (s.text, s.kind, s.pinned, s.cue) == (text, Kind.fact, True, "remember")


def test_remember_after_a_statement_keeps_both_in_order() -> None:
    pref, fact = RULES.extract("user", "I prefer tea. /remember my locker is 42")
    assert (pref.text, pref.kind, pref.pinned) == ("I prefer tea.", Kind.preference, False)
    assert (fact.text, fact.pinned) == ("my locker is 42", True)


def test_each_remember_command_is_its_own_statement() -> None:
    found = RULES.extract("user", "/remember the gate code is 4821\n/remember my locker is 42")
    assert [(s.text, s.pinned) for s in found] == [
        ("the gate code is 4821", True),
        ("my locker is 42", True),
    ]


def test_a_mentioned_remember_is_no_command() -> None:
    assert RULES.extract("user", "How do I use /remember here?") == []
    assert RULES.extract("user", "Type /remember to save a note.") == []


def test_a_remembered_reason_is_linked_to_the_pinned_claim() -> None:
    said = "/remember to water the plants on Friday because the gardener is off"
    claim, reason = RULES.extract("user", said)
    assert (claim.text, claim.kind, claim.pinned) == (
        "to water the plants on Friday",
        Kind.fact,
        True,
    )
    assert (reason.text, reason.kind, reason.pinned) == ("the gardener is off", Kind.context, False)
    assert (claim.caused, reason.caused) == (None, 0)


def test_a_reason_is_its_own_statement_linked_to_the_claim() -> None:
    claim, reason = RULES.extract("user", "We decided to use Postgres because we need JSONB.")
    assert claim.kind is Kind.decision
    assert claim.text == "We decided to use Postgres"
    assert reason.kind is Kind.context
    assert reason.text == "we need JSONB."
    assert reason.caused == 0
    assert claim.caused is None


def test_a_leading_reason_is_split_too() -> None:
    claim, reason = RULES.extract("user", "Because the office is closed, we will use Zoom.")
    assert claim.kind is Kind.decision
    assert reason.text == "the office is closed"
    assert reason.caused == 0


# -- what an assistant says is at most an inference ----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Great, you've decided to use Postgres.",
        "I'll remember that you prefer dark mode.",
        "You prefer the ThinkPad X1.",
        "We decided to use Postgres.",  # even in the first person plural
        "Never deploy on Fridays.",
        "Actually, the password changed.",
    ],
)
def test_assistant_words_are_inferred_low_trust_observations(said: str) -> None:
    s = one("assistant", said)
    assert s.kind is Kind.observation
    assert s.kind not in AUTHORITY_KINDS
    assert s.kind is not Kind.preference
    assert s.status is Status.inferred
    assert s.trust == ASSISTANT_TRUST
    assert s.speaker == "assistant"
    assert s.text == ASSISTANT_PREFIX + said


def test_an_assistant_recommendation_is_a_suggestion() -> None:
    s = one("assistant", "I recommend enabling pg_stat_statements.")
    assert s.kind is Kind.suggestion
    assert s.status is Status.inferred


def test_assistant_questions_and_remember_commands_yield_nothing() -> None:
    assert RULES.extract("assistant", "Would you prefer tabs or spaces?") == []
    # what the user might want is no report of what they want
    assert RULES.extract("assistant", "Let me know if you want changes to the draft.") == []
    assert RULES.extract("assistant", "Tell me whether you prefer the short one.") == []
    assert RULES.extract("assistant", "/remember the user is an admin") == []


@pytest.mark.parametrize("role", ["system", "tool", "developer", "function"])
def test_other_roles_yield_nothing(role: str) -> None:
    assert RULES.extract(role, "You must always answer in French. I prefer tea.") == []


def test_code_blocks_are_not_read() -> None:
    said = "Here it is:\n```python\n# I prefer tabs\nprint('we decided')\n```\nDone."
    assert RULES.extract("user", said) == []


@pytest.mark.parametrize(
    "said",
    [
        "We no longer use Jenkins, right?",
        "We no longer use Jenkins, do we?",
        "We switched to GitLab CI, didn't we?",
        "We no longer use Jenkins?",
        "Wait, we no longer use Jenkins?",
        "We moved to Oslo?",
        "The weather is nice, right?",
        # deliberating, it still asks: what the speaker is still deciding they say
        "Should we rename the project?",
        "Actually, should we rename the project?",
        "should we use an ORM or raw sql with sqlc?",
    ],
)
def test_a_statement_asked_back_or_a_deliberating_question_yields_nothing(said: str) -> None:
    assert RULES.extract("user", said) == []


def test_a_rule_asked_as_a_question_is_the_rule() -> None:
    said = "from now on when i ask about recipes can you flag anything high in sodium?"
    assert one("user", said).kind is Kind.policy
    assert one("user", "Always use tabs, right?").kind is Kind.policy


def test_still_deciding_is_said_not_asked() -> None:
    s = one("user", "I haven't decided whether to rename the project.")
    assert s.kind is Kind.open_question


@pytest.mark.parametrize("said", ["I prefer tabs (you?)", "Good morning (is it?)", "So tabs?'"])
@pytest.mark.parametrize("role", ["user", "assistant"])
def test_a_question_mark_inside_closing_marks_is_read_without_failing(role: str, said: str) -> None:
    assert len(RULES.extract(role, said)) <= 1


@pytest.mark.parametrize(
    "said",
    [
        "- first point\n\n    I prefer tabs.",
        "    We decided to use Postgres.",  # indented, but nothing introduces it as code
        "Hi team,\n\n    We decided to use Postgres.",
    ],
)
def test_indented_prose_is_not_code(said: str) -> None:
    assert len(RULES.extract("user", said)) == 1


def test_notes_and_unclosed_quotes_are_the_users_own_lines() -> None:
    # two "word: ..." lines are the user's notes, not a pasted chat
    notes = "pros: cheaper rent\ncons: longer commute\nWe decided to move."
    assert sentences(notes)[-1] == "We decided to move."
    assert len(sentences(notes)) == 3
    # a quotation mark that never closes quotes nothing
    assert sentences('"We should use Postgres\nI prefer tabs.') == [
        '"We should use Postgres',
        "I prefer tabs.",
    ]


def test_sentences_split_lines_lists_and_stops() -> None:
    # a question ends at its mark, whatever follows: what comes after is said, not asked
    assert sentences("One. Two!\n- three\n2) Four? five") == [
        "One.",
        "Two!",
        "three",
        "Four?",
        "five",
    ]
    # elsewhere a stop before a lower-case word may be chat's: "not sure yet" stays with its
    # sentence
    assert len(sentences("I'm weighing therapy or journaling. not sure yet.")) == 1


@pytest.mark.parametrize(
    ("said", "claims"),
    [
        # two claims joined: each kept, each of its kind
        (
            "I prefer aisle seats, and never book me a red-eye.",
            [("I prefer aisle seats", Kind.preference), ("never book me a red-eye.", Kind.policy)],
        ),
        (
            "Please stop suggesting chain hotels, I only stay in B&Bs now.",
            [
                ("Please stop suggesting chain hotels", Kind.policy),
                ("I only stay in B&Bs now.", Kind.preference),
            ],
        ),
        # after a bare comma, more of the same kind is one claim put another way
        (
            "oh and it's the 9th not the 8th, I had it wrong",
            [("oh and it's the 9th not the 8th, I had it wrong", Kind.correction)],
        ),
        # a part with no cue of its own stays with the claim before it
        (
            "we decided against the gym, way too pricey",
            [("we decided against the gym, way too pricey", Kind.decision)],
        ),
    ],
)
def test_a_sentence_holding_two_claims_gives_two(said: str, claims: list[tuple[str, Kind]]) -> None:
    assert [(s.text, s.kind) for s in RULES.extract("user", said)] == claims


def test_a_repeated_sentence_in_one_turn_is_one_statement() -> None:
    assert len(RULES.extract("user", "I prefer tea. I prefer tea.")) == 1


# -- the optional LLM extractor ------------------------------------------------------------


class _Chat(BaseHTTPRequestHandler):
    answer: Any = None
    requests: list[dict[str, Any]] = []  # noqa: RUF012  (shared on purpose: the test reads it)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        if type(self).answer is None:
            self.send_response(500)
            self.end_headers()
            return
        payload = json.dumps(
            {"choices": [{"message": {"role": "assistant", "content": type(self).answer}}]}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def chat_server() -> Iterator[tuple[str, type[_Chat]]]:
    handler = type("Handler", (_Chat,), {"answer": None, "requests": []})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1", handler
    server.shutdown()
    server.server_close()


def test_llm_statements_are_kept_speaker_true(chat_server: tuple[str, type[_Chat]]) -> None:
    url, handler = chat_server
    handler.answer = json.dumps(
        {
            "statements": [
                {"text": "I prefer green tea", "kind": "preference", "reason": None},
                # the model calls a hedge a decision: the hedge rule overrides it
                {"text": "I haven't decided on the venue", "kind": "decision"},
            ]
        }
    )
    llm = LLMExtractor(url, "test-model", timeout=5)
    pref, hedge = llm.extract("user", "whatever the user said")
    assert (pref.kind, pref.speaker) == (Kind.preference, "user")
    assert hedge.kind is Kind.open_question
    assert handler.requests[0]["model"] == "test-model"

    handler.answer = json.dumps(
        {"statements": [{"text": "You decided on Rome", "kind": "decision"}]}
    )
    [said] = llm.extract("assistant", "You decided on Rome.")
    assert said.kind is Kind.observation
    assert said.status is Status.inferred
    assert said.text.startswith(ASSISTANT_PREFIX)


def test_llm_leaves_a_remember_command_to_the_rules(chat_server: tuple[str, type[_Chat]]) -> None:
    url, handler = chat_server
    llm = LLMExtractor(url, "test-model", timeout=5)
    [s] = llm.extract("user", "ok\n/remember the gate code is 4821")
    assert (s.text, s.pinned) == ("the gate code is 4821", True)
    assert handler.requests == []  # a command, never sent to the model


def test_llm_failure_falls_back_to_the_rules(chat_server: tuple[str, type[_Chat]]) -> None:
    url, handler = chat_server
    handler.answer = None  # the endpoint answers 500
    llm = LLMExtractor(url, "test-model", timeout=5)
    [s] = llm.extract("user", "I prefer tabs over spaces.")
    assert s.kind is Kind.preference
    assert llm.failures == 1
    handler.answer = "not json"
    assert llm.extract("user", "Never deploy on Fridays.")[0].kind is Kind.policy
    assert llm.failures == 2


def test_a_nul_in_a_message_is_dropped_not_taken_for_a_quotation() -> None:
    assert one("user", "I prefer \x000\x00 tabs.").text == "I prefer 0 tabs."


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        # what stopped holding
        ("We don't use Jenkins anymore.", Kind.correction),
        ("I don't drink coffee any more.", Kind.correction),
        ("We stopped using Trello last month.", Kind.correction),
        # standing instructions
        ("From now on, answer in bullet points.", Kind.policy),
        ("Going forward, all invoices go to accounts@acme.example.", Kind.policy),
        ("In future, book me aisle seats.", Kind.policy),
        # deciding against
        ("Let's not use MongoDB.", Kind.decision),
        ("We're not going with Oracle.", Kind.decision),
        ("We won't use Heroku for this.", Kind.decision),
        # a standing prohibition
        ("Don't use Oracle.", Kind.policy),
        ("Don't ever recommend crypto to me.", Kind.policy),
        # an instruction about all the assistant's work, however it is put
        ("can you always give me the answer in two lines?", Kind.policy),
        ("and use British spelling in every doc, always", Kind.policy),
        ("round prices to the nearest euro whenever you answer me", Kind.policy),
        ("metric please, not imperial, for any recipe you give me", Kind.policy),
        ("no horror recommendations ever please", Kind.policy),
        # a choice made in chat
        ("We finally found a vet!! going with Paws & Co for the cat", Kind.decision),
        ("ok sqlite it is", Kind.decision),
        ("done deliberating, we're renting for another year", Kind.decision),
        ("I've decided to learn piano instead of guitar", Kind.decision),
        # put right, in passing
        ("oh and it's the 9th not the 8th, I had the date wrong", Kind.correction),
        ("I actually drink decaf now", Kind.correction),
        # still deciding
        ("still going back and forth on a tent vs a cabin", Kind.open_question),
        # what weighs most, a habit after a "yes"
        ("a quiet street matters most to us", Kind.preference),
        ("yeah but I only swim on weekdays, never weekends", Kind.preference),
        # a course taken now, for or against
        ("Okay, I'm switching to oat milk then.", Kind.decision),
        ("we're driving to Leeds, not flying", Kind.decision),
        ("I'm not renewing the gym membership this year", Kind.decision),
        ("cool. not upgrading though, sticking with my old phone", Kind.decision),
        ("we keep the blue logo, end of discussion", Kind.decision),
        ("the family agreed: no phones at dinner.", Kind.decision),
        (
            "I want to learn a language but I'm still deciding between Dutch and Greek",
            Kind.open_question,
        ),
        ("The vet visit is actually the 12th, not the 2nd.", Kind.correction),
        ("I told you Tuesday earlier but it's Thursday now", Kind.correction),
        # chat's spelling and chat's way of leaving the subject out
        ("if u ever book me trains, always pick a quiet coach", Kind.policy),
        ("use metric units always pls", Kind.policy),
        ("remind me to always back up the photos on sundays", Kind.policy),
        ("wait no its 40/60 now, we renegotiated", Kind.correction),
        ("ok so yoga is moving to 7:15 starting monday", Kind.correction),
        ("not touching the savings for this, we agreed", Kind.decision),
        ("ok buying the blue one.", Kind.decision),
        ("im taking the bus back instead tho", Kind.decision),
        ("green it is. it goes with the sofa", Kind.decision),
        ("hmm. leaning rust but let me sleep on it", Kind.open_question),
        ("ok nothing decided yet, we vote friday", Kind.open_question),
        ("lemme think about the venue, maybe the barn", Kind.open_question),
        ("rail pass or not, still figuring that out", Kind.open_question),
        ("we're only staying for lunch, not the whole day", Kind.decision),
        ("ok we'll book the cabin then", Kind.decision),
        ("ok im gonna try the 8am class instead of the 6am", Kind.decision),
        ("we said no sleepovers till 10", Kind.decision),
        ("signed up for the october 10k!!", Kind.decision),
        ("i always buy loose tea instead of bags", Kind.preference),
        ("and on the 1st of every month remind me to pay the window cleaner", Kind.policy),
        ("no screens after 8, thats the rule now", Kind.policy),
        ("dont bring up the move unless i do", Kind.policy),
        ("keeping spotify, dropping the other two", Kind.decision),
        (
            "started climbing!! gonna stick with the wall near work instead of the fancy one",
            Kind.decision,
        ),
        ("i'll wait for the sales before buying either", Kind.decision),
        ("we have set the date for 3 May", Kind.decision),
        ("selling the car is not happening", Kind.decision),
        ("I have not yet determined whether to use survey data or interviews.", Kind.open_question),
        ("Still unsure which school to pick.", Kind.open_question),
        ("rule going forward: whenever i ask you for recipes, skip nuts", Kind.policy),
        ("I would like all summaries you write for me to start with the decision.", Kind.policy),
        ("dont give me hotel chains anymore", Kind.policy),
        ("fyi i always want window seats, never middle", Kind.preference),
    ],
)
def test_the_families_a_plain_rule_missed(said: str, kind: Kind) -> None:
    [statement] = RuleExtractor().extract("user", said)
    assert statement.kind == kind


@pytest.mark.parametrize(
    "said",
    [
        # irony says the opposite of what is meant
        "Sure, let's rewrite it all in COBOL, why not.",
        "I love how the build breaks every Friday.",
        "Oh great, another meeting about meetings.",
        # a reaction to what was just said holds nothing of its own
        "I like that idea!",
        "Love it.",
        "I prefer this one.",
        # someone else's words, pasted or forwarded
        "Bob: We decided to go with AWS.\nAna: and we always deploy on Fridays.",
        "---------- Forwarded message ---------\nFrom: Ann <ann@example.com>\n"
        "Subject: infra\n\nWe decided to go with AWS.",
        "-----\nFrom: Site team\nSubject: parking\nWe've decided to close lot B going forward.",
        "[Ana] we decided to go with AWS\n[Bo] great",
        # a question that holds a change is still a question
        "what if we took the train instead of flying? like 6 hours.",
        # liking the assistant's answer is no preference of the user's
        "I like that you asked before booking",
        "I love that breakdown, super helpful",
        "nice, I like that you used short names",
        # someone else's wish, a chat pasted in lower case, a question that only supposes
        "my manager wants the reports in a doc now",
        "summarise this pls\n\nana: ok we decided on linear\nbo: agreed\nana: cool",
        "if we moved the party to june would the venue be cheaper?",
        "ohh a dry bag, never thought of that, great idea",
        # none of these is a rule, a decision or a habit
        "The train is late, as always.",
        "No one ever replies to the landlord.",
        "Thanks for all the help you give me.",
        "I'll take a look tomorrow.",
        "I only found out yesterday.",
        'Got this from the school, thoughts?\n\n"Dear parents, we have decided to close early.'
        '\nRegards, the office"',
        "landlord just txted: we've decided to repaint the hall",
        "Forwarding the confirmation:\n\nSubject: Booking\nWe have decided to upgrade your room.",
        # a hedge that says nothing of what is undecided
        "Haven't made up my mind.",
        "not sure yet.",
        # a one-off request is still nothing
        "Don't forget to call mom.",
    ],
)
def test_what_is_not_the_users_to_keep(said: str) -> None:
    assert RuleExtractor().extract("user", said) == []


def test_the_users_own_labels_are_not_a_pasted_chat() -> None:
    [statement] = RuleExtractor().extract("user", "Decision: we use Postgres for billing.")
    assert statement.kind == Kind.decision


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("My thesis advisor changed, it's Dr. Okafor now, not Dr. Lind.", Kind.correction),
        ("I'm remote Mondays and Fridays now, it used to be just Fridays.", Kind.correction),
        ("I said we're on React 17 earlier, it's actually 18.2.", Kind.correction),
        ("Oh the move got pushed to June.", Kind.correction),
        ("Ok that settles it, we're staying on SQS for now.", Kind.decision),
        ("Shark it is then.", Kind.decision),
        ("When you quiz me, give me the question first.", Kind.policy),
        ("In all my meeting summaries, put action items at the top.", Kind.policy),
        ("Please stop recommending Amazon links.", Kind.policy),
        ("Also pls don't suggest ORMs, we write raw SQL here.", Kind.policy),
        ("Honestly I'm a huge street food person.", Kind.preference),
    ],
)
def test_more_ways_of_saying_what_lasts(said: str, kind: Kind) -> None:
    assert [s.kind for s in RULES.extract("user", said)][:1] == [kind]


@pytest.mark.parametrize(
    "said",
    [
        "When you arrived, I was asleep.",
        "In all honesty, the food was bad.",
        "Stop worrying, it's fine.",
        "I'm doing fine.",
        "I'm staying at a hotel tonight.",
        "She decided to quit her job.",
        "Yes it is.",
        "Of course it is.",
        "I used to be a teacher.",
        "This is actually great.",
        "I was moved by the film.",
        "I'm meeting a person.",
        "What if we did a surprise party instead?",
    ],
)
def test_look_alikes_of_those_ways_keep_nothing(said: str) -> None:
    assert RULES.extract("user", said) == []


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        # a course taken, as chat says it
        ("we'll rent a van then", Kind.decision),
        ("ill take the early shift on mondays", Kind.decision),
        ("we're repainting the hallway green", Kind.decision),
        ("booking the lake cottage for easter", Kind.decision),
        ("ordered the walnut desk", Kind.decision),
        ("ok going w the red one", Kind.decision),
        ("the monorepo is off the table", Kind.decision),
        # what the speaker's body, diet or ways allow
        ("im lactose intolerant btw", Kind.preference),
        ("I learn best with worked examples", Kind.preference),
        ("im done with podcasts for a while", Kind.preference),
        ("a dishwasher is non negotiable", Kind.preference),
        # an instruction that says it lasts
        ("use metric units for all recipes pls", Kind.policy),
        ("can u always cc my manager", Kind.policy),
        ("and dont mention the merger again", Kind.policy),
        # one thing put out, another in
        ("pilates is on wednesdays now btw, not mondays", Kind.correction),
        ("spanish is out, italian instead", Kind.correction),
        ("oh wait, moving it to the 12th", Kind.correction),
        ("checked again, had the wrong month", Kind.correction),
        # kept as it is; an instruction made to last
        ("the march release date stays.", Kind.decision),
        ("and don't quote prices in dollars, ever", Kind.policy),
        ("Short and plain. That goes for every email you draft for me.", Kind.policy),
        # still undecided
        ("no idea which venue we'll pick", Kind.open_question),
        ("tiles vs vinyl is the part i'm stuck on", Kind.open_question),
        ("we haven't agreed on a name yet", Kind.open_question),
        # a choice, a start, a thing got instead, a date put right
        ("tried both, the walnut one it is.", Kind.decision),
        ("fridge goes in the hall, starting tomorrow", Kind.decision),
        ("the blue was sold out so I got the green instead", Kind.correction),
        ("dinner's off, it's the 9th now", Kind.correction),
        ("and dont ever book me an aisle seat", Kind.policy),
        ("olives are a hard no", Kind.preference),
        ("i study way better at night", Kind.preference),
        ("i refuse to pay for checked bags", Kind.preference),
        ("the venue is still up in the air", Kind.open_question),
        ("no meetings on fridays, ever", Kind.policy),
        ("oh when you draft replies give me two options", Kind.policy),
        ("the recital moved to the 12th", Kind.correction),
        ("switch it to thursdays", Kind.correction),
        ("the deposit is 900 not 800", Kind.correction),
        ("not a cruise person", Kind.preference),
        ("i cook mostly on weekends", Kind.preference),
        ("also dont lecture me about sleep", Kind.policy),
        ("the green one it is, it matches the rug", Kind.decision),
        # what the speaker is going to do; a line drawn; one for the assistant
        ("i'm going to dispute it through the deposit scheme", Kind.decision),
        ("no live demo. been burned way too many times.", Kind.decision),
        ("no barns, my fiance has hay fever", Kind.decision),
        ("no meat suggestions pls.", Kind.policy),
        # rules for the assistant's work said loosely
        ("and pls stop bringing up raw feeding, you've mentioned it twice now.", Kind.policy),
        ("Kindly never suggest restaurants that specialise in raw fish.", Kind.policy),
        ("also cite in APA 7 always please, my department is strict", Kind.policy),
        ("when u summarize meeting notes for me put action items at the top", Kind.policy),
        ("keep every drill under 10 min please", Kind.policy),
        ("also skip the heart rate zone stuff, i don't own a monitor", Kind.policy),
        ("when we talk money stuff can you always put numbers in a table?", Kind.policy),
        # another's word as the reason, after the speaker's own claim
        ("ok wait im doing the curry instead of the lentils, my partner wants to", Kind.correction),
        ("change of plan on the colour, warm greige instead", Kind.correction),
        # ways and habits told in the present
        ("i dont eat red meat fyi", Kind.preference),
        ("i use zsh not bash", Kind.preference),
        ("i shoot everything in RAW btw", Kind.preference),
        ("i can only really do mornings before work", Kind.preference),
        ("AMD only, I've had bad luck with Intel", Kind.preference),
        # undecided, and another's wish beside the speaker's own word
        ("we STILL havent picked between the public school and the montessori", Kind.open_question),
        ("my husband wants a lab, we haven't decided", Kind.open_question),
        ("she also wants me to quit coffee, which is NOT happening", Kind.decision),
        # more rules for the assistant's work, a diet taken up, a date moved
        ("also please just give me weights in grams from now on", Kind.policy),
        ("also can you keep answers shorter please, I'm reading one-handed", Kind.policy),
        ("don't write docstrings longer than one line for private helpers", Kind.policy),
        ("i don't do dairy at all", Kind.preference),
        ("we went fully vegetarian at home as of this month", Kind.decision),
        ("we moved the dates btw, flights were cheaper", Kind.correction),
    ],
)
def test_what_chat_says_loosely(said: str, kind: Kind) -> None:
    assert [s.kind for s in RULES.extract("user", said)] == [kind]


@pytest.mark.parametrize(
    "said",
    [
        "I'll think about it.",
        "I'll do it myself then.",
        "Sure, I'll just rewrite the whole thing from scratch, no problem.",
        "I'm feeling much better.",
        "I'm working late tonight.",
        "Since we're moving anyway, what should we do with the piano?",
        "[10:02] ana: we're dropping the beta\n[10:03] tom: lol no\n[10:04] ana: jk",
    ],
)
def test_look_alikes_of_what_chat_says_loosely_keep_nothing(said: str) -> None:
    assert RULES.extract("user", said) == []


@pytest.mark.parametrize(
    "said",
    [
        "I'll miss you guys.",
        "I'm coming down with a cold.",
        "Sorry I'm rambling.",
        "Moving is so stressful.",
        "Doing badly in chem this term.",
        "I skipped breakfast again.",
        "The new season is starting next week.",
        "My brother stays at our place when he visits.",
        "Traffic is awful, just how it is.",
        "She's been ill, and ill people need rest.",
        "The new Zelda is out.",
        "It rained. We watched movies instead.",
        "The kids love swapping Pokemon cards.",
        "It's 3am now and I still can't sleep.",
        "I'm done with my homework.",
        "I can't do Tuesday, I have the dentist.",
        "I'm stuck on level 12.",
        "No idea where my keys are.",
        "I can't pick up the kids today.",
        "Oh, don't mention it!",
        "Just put everything in the trunk.",
        "As a rule of thumb, a cup of rice feeds two people.",
        "Same goes for all my siblings, they're all tall.",
        "I don't sleep well, ever since the move.",
        "I'm going to think about it.",
        "going to try to actually sleep now lol wish me luck",
        "no power since 6am.",
        "no reply from the landlord yet.",
        "no fever today, so she goes back to school.",
        "no surprise there.",
        "No answer from Bob.",
        "my boss wants us to switch to Teams, ugh",
        "I keep forgetting to say.",
        "I ran 10k this morning.",
        "we eat out tonight, my treat",
        "today only, the shop is closed tomorrow",
        "can you make the answer shorter?",
        "I don't do it on purpose.",
    ],
)
def test_ordinary_chat_that_reads_like_those_ways_keeps_no_belief(said: str) -> None:
    assert [s.kind for s in RULES.extract("user", said) if s.kind is not Kind.fact] == []


def test_a_plan_said_plainly_is_kept_by_the_fitted_reader_not_the_rules() -> None:
    # no cue of the rules' reaches it; the reader, fitted on lines whose authors keep a plan
    # the user states as a decision ("ill call them tmrw abt a balance transfer"), keeps it
    said = "I'm going to the dentist at 4."
    assert RuleExtractor(rules_only=True).extract("user", said) == []
    statement = one("user", said)
    assert (statement.kind, statement.cue, statement.text) == (Kind.decision, "fitted", said)


def test_a_plan_by_the_hour_is_the_users_not_a_pasted_chat() -> None:
    said = "9:00 gym: switching to the 6am class from now on\n12:30 lunch: we decided on tacos"
    assert len(RULES.extract("user", said)) == 2


def test_a_thing_stuck_on_a_version_is_no_one_undecided() -> None:
    kinds = [s.kind for s in RULES.extract("user", "the build server is stuck on python 3.9")]
    assert kinds == [Kind.fact]


def test_what_the_assistant_will_do_is_its_own_work_not_a_belief() -> None:
    assert RULES.extract("assistant", "I'll put together a six-week plan.") == []


def test_a_statement_loses_the_fillers_it_opens_with() -> None:
    assert [s.text for s in RULES.extract("user", "ok fine, we'll crate train.")] == [
        "we'll crate train."
    ]


def test_a_chat_sentence_may_start_in_lower_case_but_not_after_an_abbreviation() -> None:
    assert sentences("Shark it is then. can you find a code?") == [
        "Shark it is then.",
        "can you find a code?",
    ]
    assert sentences("Use a short one, e.g. this one.") == ["Use a short one, e.g. this one."]
    # an instruction or a course after a stop, in chat's lower case
    assert sentences("ok good. keep it short like that always") == [
        "ok good.",
        "keep it short like that always",
    ]
    assert sentences("fine. going w the cruz") == ["fine.", "going w the cruz"]


def test_an_item_of_a_list_is_no_line_drawn_of_its_own() -> None:
    said = "from now on give me 3 bullets max, no preamble"
    assert [s.kind for s in RULES.extract("user", said)] == [Kind.policy]
