"""The gate's classifiers: the deterministic rules, and the LLM path against a loopback
OpenAI-protocol server (a real HTTP server in a thread; no network beyond 127.0.0.1)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from beliefgraph.config import Settings
from beliefgraph.gate.classifier import (
    BeliefView,
    DefaultClassifier,
    LLMClassifier,
    Pair,
    build_classifier,
    content_tokens,
    different_subjects,
    slot,
)
from beliefgraph.language import frames
from beliefgraph.language.values import same_values, values
from beliefgraph.models import Verdict

SETTINGS = Settings()
DEFAULT = DefaultClassifier(SETTINGS)


def view(
    text: str,
    *,
    id: str = "b",
    kind: str = "fact",
    trust: float = 0.8,
    about: dict[str, set[str]] | None = None,
    canonical_name: str | None = None,
) -> BeliefView:
    return BeliefView(
        id=id,
        text=text,
        kind=kind,
        trust=trust,
        canonical_name=canonical_name,
        namespaces=("user:me",),
        entities={k: frozenset(v) for k, v in (about or {}).items()},
    )


WIFI = {"office_wifi": {"office", "wifi"}}


def judge(new: BeliefView, old: BeliefView, similarity: float) -> tuple[Verdict, str]:
    """The rules' verdict: the cosines here are chosen, not measured, and the pair model
    (tests/unit/test_relation.py) reads the cosine beside the words."""
    j = DEFAULT.by_rules(Pair(new, old, similarity))
    return j.verdict, j.reason


def test_content_words_keep_negations_and_values() -> None:
    assert content_tokens("The user does NOT deploy on Fridays") == {
        "user",
        "deploy",
        "fridays",
        "not",
    }
    assert "tulip42" in content_tokens("the password is tulip-42")


def test_slot_splits_at_the_first_copula_or_change_verb() -> None:
    s = slot("The office Wi-Fi password is tulip-42.", frozenset({"office", "wifi"}))
    assert s is not None
    assert (s.attribute, s.value, s.change) == ({"password"}, {"tulip42"}, False)
    changed = slot("The Wi-Fi password changed; IT has the current one.", frozenset({"wifi"}))
    assert changed is not None
    assert changed.attribute == {"password"}
    assert changed.change
    assert slot("Router firmware updates need a reboot", frozenset()) is None


def test_a_repeated_statement_is_noop() -> None:
    verdict, reason = judge(
        view("User prefers dark mode"), view("The user prefers dark mode.", id="old"), 0.96
    )
    assert verdict is Verdict.noop
    assert "old" in reason


def test_the_same_words_of_another_kind_are_compatible_not_merged() -> None:
    verdict, _ = judge(
        view("Deploys need approval", kind="policy"), view("Deploys need approval"), 0.99
    )
    assert verdict is Verdict.compatible


def test_a_negation_contradicts_even_though_embeddings_call_it_identical() -> None:
    verdict, reason = judge(
        view("Deploys never go out on Fridays"), view("Deploys go out on Fridays"), 0.965
    )
    assert verdict is Verdict.contradicts
    assert "never" in reason


def test_same_entity_and_attribute_with_a_new_value_contradicts_at_modest_cosine() -> None:
    old = view("The office Wi-Fi password is tulip-42.", id="w1", kind="credential", about=WIFI)
    new = view("The Wi-Fi password changed; IT has the current one.", kind="correction", about=WIFI)
    verdict, reason = judge(new, old, 0.67)
    assert verdict is Verdict.contradicts
    assert "'password'" in reason


def test_a_different_value_for_the_same_attribute_contradicts() -> None:
    old = view("The project's database is PostgreSQL.", about={"project": {"project"}})
    new = view("The project's database is MongoDB.", about={"project": {"project"}})
    assert judge(new, old, 0.75)[0] is Verdict.contradicts


def test_sharing_only_a_name_before_the_verb_is_no_shared_attribute() -> None:
    rosa = {"reyes": {"reyes"}}
    old = view("Rosa Reyes on ward 3 is due a review.", id="r1", about=rosa)
    new = view("Rosa Reyes updated her mailing address in the portal on 20 November.", about=rosa)
    assert judge(new, old, 0.6)[0] is not Verdict.contradicts
    # a property shared with a name is one property
    old = view("Rosa Reyes's phone number is 0771 000 111.", id="r2", about=rosa)
    new = view("Rosa Reyes's new phone number is 0772 999 888.", about=rosa)
    assert judge(new, old, 0.8)[0] is Verdict.contradicts


def test_the_same_value_again_is_noop_and_more_of_it_subsumes() -> None:
    about = {"project": {"project"}}
    old = view("The project's database is PostgreSQL.", about=about)
    again = view("Project database is PostgreSQL", about=about)
    more = view("The project's database is PostgreSQL 16 on RDS.", about=about)
    assert judge(again, old, 0.95)[0] is Verdict.noop
    assert judge(more, old, 0.8)[0] is Verdict.subsumes


def test_free_text_reads_a_new_value_of_a_one_value_attribute() -> None:
    # no entity, no canonical name: the text's own subject and attribute (language/frames.py)
    old = view("The office Wi-Fi password is tulip-42.")
    new = view("the office wifi password is maple-77")
    assert judge(new, old, 0.85)[0] is Verdict.contradicts
    assert judge(new, old, 0.6)[0] is Verdict.contradicts
    assert judge(new, old, 0.4)[0] is Verdict.contradicts
    assert judge(new, old, 0.25)[0] is Verdict.add  # below gate_correction_similarity
    # another thing of the same sort, or a property that holds many values: no replacement
    router = view("The dock router code is 5080.")
    assert judge(view("The dock drone code is 1234."), router, 0.7)[0] is Verdict.add
    assert judge(view("Ana speaks Portuguese."), view("Ana speaks French."), 0.81)[0] in {
        Verdict.compatible,
        Verdict.add,
    }


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "too" as a degree ("too loose") adds nothing: the switch is a change
        (
            "I'm knitting the blue cardigan on 4mm needles.",
            "Switched the blue cardigan to 3.75mm needles; gauge was too loose.",
        ),
        (
            "I make my sourdough at 75% hydration.",
            "I've gone up to 80% hydration on the sourdough.",
        ),
        ("The Chem 201 midterm is Oct 18.", "The Chem 201 midterm got pushed to Oct 25."),
        ("My 5K PR is 22:41.", "New 5K PR: 21:58!"),
    ],
)
def test_free_text_reads_more_ways_of_saying_a_value_changed(old: str, new: str) -> None:
    assert judge(view(new), view(old), 0.6)[0] is Verdict.contradicts


def test_digit_groups_are_one_number_only_when_written_as_one() -> None:
    assert values("Work cell: (415) 555-0142.") == values("+1 415 555 0142")
    assert values("Sets of 10, 20, 30, 40.") == {"10", "20", "30", "40"}
    assert "20192021" not in values("Rented 2019-2021.")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Choir is on Wednesdays.", "choir: wed"),
        ("Rotas change the second Monday of the month.", "rota swap 2nd Mon monthly"),
        ("The conference runs Oct 3-5.", "Conference: 3 to 5 October."),
        ("Lunch budget is forty dollars.", "Lunch budget: $40"),
        ("The grant is worth $2.5M.", "Grant: 2,500,000"),
        ("Pickup at 6.", "pickup 6pm"),
        ("Lights out at 10:30.", "lights out 10:30 in the evening"),
        # a stop between hour and minutes, after "at" or before am/pm; the teens spelled out
        ("Pickup is at 3:30.", "pickup at 3.30"),
        ("Dinner at 7:15pm.", "dinner 7.15pm"),
        ("I save 15% of my pay.", "saving fifteen percent of my pay"),
    ],
)
def test_values_are_compared_in_one_spelling(one: str, other: str) -> None:
    assert values(one), one
    assert same_values(values(one), values(other))


def test_values_a_count_is_no_date_nor_time() -> None:
    assert values("Only two may attend.") == {"2"}
    assert values("2 May: dentist") == {"05-02"}
    assert values("We run 2 afternoon workshops a week.") == {"2"}
    assert "mon" not in values("C'mon, the rent is due.")
    assert "04-32" not in values("4/32")


def test_frames_read_no_change_or_opening_into_ordinary_words() -> None:
    assert frames.read("Notebook passwords are in the vault.").subject == {"notebook", "password"}
    assert not frames.read("PRs must be no more than 400 lines.").change
    assert not frames.read("Keep left, the office is the second door.").change
    assert frames.read("Greta left; Owen is our office manager now.").change


def test_values_a_number_is_not_taken_for_a_time_or_a_unit_for_money() -> None:
    assert values("Anneal at 58 degrees.") == {"58"}
    assert values("Knit on 4m of yarn.") == {"4"}
    assert values("It costs 3.50.") == {"3.5"}
    assert not same_values(values("Standup at 9am."), values("Standup at 9pm."))
    assert "sat" not in values("We sat in the sun.")


def test_free_text_restates_values_written_another_way() -> None:
    assert judge(view("yoga: Wed 7:30pm"), view("Yoga is Wednesdays at 7:30."), 0.7)[0] is (
        Verdict.noop
    )
    # days alone are shared by many things: two things, however alike the sentence
    gardener = view("The gardener comes every other Friday.")
    got = judge(view("The window cleaner comes every other Friday."), gardener, 0.75)[0]
    assert got not in (Verdict.noop, Verdict.contradicts)


def test_close_texts_with_the_same_names_or_values_restate_each_other() -> None:
    old = view("Invoices are handled by Brex.")
    assert judge(view("We run invoices through Brex."), old, 0.85)[0] is Verdict.noop
    assert judge(view("We run invoices through Brex."), old, 0.7)[0] is not Verdict.noop
    assert judge(view("We run invoices through Ramp."), old, 0.85)[0] is not Verdict.noop
    tuition = view("The deposit is due May 2.")
    assert judge(view("Deposit deadline: 2 May."), tuition, 0.85)[0] is Verdict.noop


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The Wi-Fi password is fern-21.", "Reset the Wi-Fi password this morning."),
        (
            "The Wi-Fi password is fern-21.",
            "I factory-reset the router; the Wi-Fi password is back to the default.",
        ),
        ("Our team lead is Marco.", "Marco left; Dana is our team lead now."),
        (
            "We design the mockups in Figma.",
            "Note from user: no longer using Figma for the mockups.",
        ),
        ("Dad's birthday is May 9.", "Oops, Dad's birthday is actually the 19th."),
        ("The gym is closed for repairs.", "The gym reopened this week."),
        ("Our rental van in Leeds is with Avis.", "We ended up going with Sixt for the Leeds van."),
    ],
)
def test_free_text_reads_a_change_in_other_words(old: str, new: str) -> None:
    assert judge(view(new), view(old), 0.6)[0] is Verdict.contradicts


def test_two_things_of_one_kind_with_the_same_value_stay_two() -> None:
    # codes that open with digits are codes: "4B-12" is not "4B-21"
    desk = view("Hannah sits at desk 4B-12.")
    assert judge(view("Hamid sits at desk 4B-21."), desk, 0.5)[0] not in (
        Verdict.noop,
        Verdict.contradicts,
    )
    # one head, each with its own qualifier; "extended" before its noun is no change
    warranty = view("The dishwasher warranty runs until May 2026.")
    got = judge(view("The car's extended warranty runs until May 2026."), warranty, 0.55)[0]
    assert got not in (Verdict.noop, Verdict.contradicts)
    # "the first Tuesday" is one value, a day: two meetings on it are two meetings
    club = view("Book club meets the first Tuesday of the month.")
    got = judge(view("The board meeting is the first Tuesday of each quarter."), club, 0.5)[0]
    assert got is not Verdict.noop


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take sugar in my tea.", "no more sugar in my tea for me"),
        (
            "Choir practice is at 7:30 on Thursdays.",
            "heads up: choir practice is 7:45 from next week",
        ),
    ],
)
def test_no_more_and_from_next_week_announce_a_change(old: str, new: str) -> None:
    assert judge(view(new), view(old), 0.65)[0] is Verdict.contradicts


def test_a_change_sharing_only_the_verb_changes_nothing() -> None:
    # "close" is how both say it, not what they speak of
    pool = view("The pool closes at 9pm on weeknights.")
    assert judge(view("We close at 6 on weekdays now."), pool, 0.6)[0] is not Verdict.contradicts
    assert judge(view("The pool closes at 8pm now."), pool, 0.6)[0] is Verdict.contradicts


def test_a_one_value_attribute_written_shorter_is_not_a_new_value() -> None:
    old = view("My vet is Dr. Patel on Oak St.")
    assert judge(view("vet: Dr Patel (Oak Street clinic)"), old, 0.88)[0] is not (
        Verdict.contradicts
    )
    # a code is itself or another, however alike: a rotated password is a new value
    old = view("The alarm code is tulip-42.")
    assert judge(view("The alarm code is tulip-77."), old, 0.8)[0] is Verdict.contradicts


@pytest.mark.parametrize(
    ("old", "new", "verdict"),
    [
        # the same serial, phone number or identifiers, however written: one statement
        (
            "The trademark application serial number is 97/441,208.",
            "Trademark serial number: 97441208.",
            Verdict.noop,
        ),
        ("Bin A-14 holds the M8 hex bolts.", "M8 hex bolts live in A14.", Verdict.noop),
        ("Connect to the VPN at vpn.northwind.io.", "VPN address: vpn.northwind.io.", Verdict.noop),
        # the same values of two things of one kind are two statements
        (
            "Maya's soccer practice is Wednesdays at 5.",
            "Leo's swim practice is Wednesdays at 5.",
            None,
        ),
        (
            "Pizza dough needs 48 hours in the fridge.",
            "Focaccia dough needs 48 hours in the fridge.",
            None,
        ),
    ],
)
def test_free_text_restates_the_same_values_of_one_thing(
    old: str, new: str, verdict: Verdict | None
) -> None:
    got = judge(view(new), view(old), 0.7)[0]
    if verdict is None:
        assert got not in (Verdict.noop, Verdict.subsumed, Verdict.subsumes, Verdict.contradicts)
    else:
        assert got is verdict


def test_a_correction_needs_no_entity_when_its_attribute_is_the_same() -> None:
    old = view("my Wi-Fi password is hunter2", id="w1", trust=0.95)
    changed = view("Actually, my Wi-Fi password changed to correct-horse-42.", kind="correction")
    no_longer = view(
        "My Wi-Fi password is no longer hunter2, it is correct-horse-42.", kind="correction"
    )
    stated = view("Correction: my Wi-Fi password is correct-horse-42.", kind="correction")
    verdict, reason = judge(changed, old, 0.63)
    assert verdict is Verdict.contradicts
    assert "'password wifi'" in reason  # "Actually" is not part of the attribute
    assert judge(no_longer, old, 0.91)[0] is Verdict.contradicts
    assert judge(stated, old, 0.66)[0] is Verdict.contradicts
    # another attribute, or a plain fact without an entity: not a replacement
    office = view("Actually, the office Wi-Fi password changed to x.", kind="correction")
    assert judge(office, old, 0.63)[0] is Verdict.add
    # a plain fact that says the same thing changed replaces it too (language/frames.py)
    assert judge(view("my Wi-Fi password changed to x"), old, 0.63)[0] is Verdict.contradicts
    # one names its subject and the other does not: not the same thing, as far as words go
    named = view(
        "The Wi-Fi password changed; IT has the current one.", kind="correction", about=WIFI
    )
    assert judge(named, view("The Wi-Fi password is kept by IT."), 0.8)[0] is Verdict.compatible


def test_a_second_credential_for_the_same_thing_replaces_the_first() -> None:
    old = view("the gate code is 1234", id="g1", kind="credential")
    new = view("the gate code is 4821", kind="credential")
    assert judge(new, old, 0.7)[0] is Verdict.contradicts
    assert judge(view("the gate code is 4821"), old, 0.7)[0] is Verdict.add  # facts: no


def test_an_entity_that_is_the_attribute_decides_on_a_correction() -> None:
    about = {"wifi_password": {"wifi", "password"}}
    old = view("Wi-Fi password is hunter2", id="w1", about=about)
    changed = view("Actually, Wi-Fi password changed to x", kind="correction", about=about)
    assert judge(changed, old, 0.6)[0] is Verdict.contradicts
    corrected = view("Wi-Fi password: correct-horse-42", kind="correction", about=about)
    assert judge(corrected, old, 0.6)[0] is Verdict.contradicts
    # facts of the entity as a whole, with nothing saying which replaces which: similarity
    assert judge(view("Wi-Fi password: x", about=about), old, 0.6)[0] is Verdict.add
    redis = {"redis": {"redis"}}
    cache = view("Redis is used as a cache.", id="r1", about=redis)
    assert judge(view("Redis moved to a new host.", about=redis), cache, 0.6)[0] is Verdict.add


def test_a_negation_before_another_word_is_not_a_change_of_value() -> None:
    about = {"redis": {"redis"}}
    old = view("Redis mode is single-node.", id="r1", about=about)
    new = view("Redis mode is single-node, not clustered.", about=about)
    assert judge(new, old, 0.85) == (
        Verdict.subsumes,
        "the same subject and attribute ('mode') as r1, adding to its value (cosine 0.85)",
    )
    replaced = view("Redis mode is no longer single-node, it is clustered.", about=about)
    assert judge(replaced, old, 0.85)[0] is Verdict.contradicts


def test_the_same_words_with_a_relation_turned_round_contradict() -> None:
    for old, new, similarity in [
        ("I prefer tea over coffee.", "I prefer coffee over tea.", 0.994),
        ("I'd rather use Postgres than MySQL.", "I'd rather use MySQL than Postgres.", 0.989),
        ("We migrated from MySQL to Postgres.", "We migrated from Postgres to MySQL.", 0.985),
    ]:
        verdict, reason = judge(view(new), view(old, id="p1"), similarity)
        assert verdict is Verdict.contradicts, (new, reason)
        assert reason.startswith("reverses p1")
    # the same relation in another order of the sentence is the same statement
    same = [
        ("Tests run before deploys.", "Before deploys, tests run.", 0.96),
        ("Deploy from staging to prod.", "From staging to prod, deploy.", 0.94),
        ("I prefer tea over coffee.", "I prefer tea over coffee!", 0.99),
    ]
    for old, new, similarity in same:
        assert judge(view(new), view(old, id="p1"), similarity)[0] is Verdict.noop, new


def test_a_shared_canonical_name_is_a_shared_subject() -> None:
    old = view("Linter: TSLint.", canonical_name="linting")
    new = view("Linter: Biome.", canonical_name="linting")
    assert judge(new, old, 0.5)[0] is Verdict.contradicts


def test_different_entities_are_never_merged() -> None:
    alice = view("Alice's favourite colour is blue", about={"alice": {"alice"}})
    bob = view("Bob's favourite colour is blue", about={"bob": {"bob"}})
    assert different_subjects(bob, alice) is not None
    assert different_subjects(alice, view("no entity")) is None
    named = view("x", canonical_name="a")
    assert different_subjects(named, view("x", canonical_name="b")) is not None


def test_containment_subsumes_and_is_subsumed() -> None:
    short = view("The user prefers dark mode.", kind="preference")
    long = view("The user prefers dark mode in the editor and terminal.", kind="preference")
    assert judge(long, short, 0.87)[0] is Verdict.subsumes
    assert judge(short, long, 0.87)[0] is Verdict.subsumed
    assert judge(long, short, 0.7)[0] is Verdict.add


def test_similar_but_different_is_compatible_then_add() -> None:
    a, b = view("Router firmware updates need a reboot."), view("The router runs firmware 1.2.")
    assert judge(a, b, 0.82)[0] is Verdict.compatible
    assert judge(a, b, 0.70)[0] is Verdict.add


# -- the LLM classifier, against a real HTTP server on loopback --------------------------------

Reply = Callable[[dict[str, Any]], tuple[int, Any]]


class _Handler(BaseHTTPRequestHandler):
    reply: Reply
    seen: list[dict[str, Any]]

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(
            {"path": self.path, "body": body, "auth": self.headers["Authorization"]}
        )
        status, payload = type(self).reply(body)
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return


@pytest.fixture
def llm_server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {"seen": [], "reply": staticmethod(lambda b: (500, {}))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    server.shutdown()
    server.server_close()


def chat(content: str) -> dict[str, Any]:
    return {"choices": [{"message": {"role": "assistant", "content": content}}]}


PAIRS = [
    Pair(view("The office moved to Berlin."), view("The office is in Paris.", id="o1"), 0.7),
    Pair(view("Coffee is free on Fridays."), view("The office is in Paris.", id="o2"), 0.1),
]


def llm(url: str, timeout: float = 2.0) -> LLMClassifier:
    return LLMClassifier(url, "test-model", timeout=timeout, fallback=DEFAULT, api_key="sk-test")


def test_the_llm_decides_in_one_batched_request_and_its_reasons_are_kept_verbatim(
    llm_server: tuple[str, type[_Handler]],
) -> None:
    url, handler = llm_server
    verdicts = [
        {"pair": 0, "verdict": "contradicts", "reason": "Berlin replaces Paris."},
        {"pair": 1, "verdict": "add", "reason": "Unrelated facts."},
    ]
    handler.reply = staticmethod(lambda body: (200, chat(json.dumps({"verdicts": verdicts}))))
    out = llm(url).judge(PAIRS)
    assert [(j.verdict, j.reason, j.classifier) for j in out] == [
        (Verdict.contradicts, "Berlin replaces Paris.", "llm:test-model"),
        (Verdict.add, "Unrelated facts.", "llm:test-model"),
    ]
    [request] = handler.seen
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer sk-test"
    assert request["body"]["model"] == "test-model"
    sent = json.loads(request["body"]["messages"][-1]["content"])
    assert [p["existing"]["text"] for p in sent["pairs"]] == ["The office is in Paris."] * 2


@pytest.mark.parametrize(
    "reply",
    [
        (500, {"error": "overloaded"}),
        (200, b"not json at all"),
        (200, chat("I think they contradict.")),
        (200, chat(json.dumps({"verdicts": "contradicts"}))),
        (200, {"choices": []}),
    ],
    ids=["http-500", "not-json", "prose", "verdicts-not-a-list", "no-choices"],
)
def test_a_failing_or_malformed_llm_falls_back_to_the_default_and_logs_it(
    llm_server: tuple[str, type[_Handler]],
    reply: tuple[int, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    url, handler = llm_server
    handler.reply = staticmethod(lambda body: reply)
    with caplog.at_level(logging.WARNING, logger="beliefgraph.gate.classifier"):
        out = llm(url).judge(PAIRS)
    assert out == DEFAULT.judge(PAIRS)
    assert all(j.classifier == "default" for j in out)
    assert "the default decides" in caplog.text


def test_invalid_entries_fall_back_pair_by_pair(
    llm_server: tuple[str, type[_Handler]], caplog: pytest.LogCaptureFixture
) -> None:
    url, handler = llm_server
    verdicts = [
        {"pair": 0, "verdict": "obliterates", "reason": "not a verdict"},
        {"pair": 1, "verdict": "add", "reason": "Unrelated."},
        {"pair": 7, "verdict": "add", "reason": "no such pair"},
    ]
    handler.reply = staticmethod(lambda body: (200, chat(json.dumps({"verdicts": verdicts}))))
    with caplog.at_level(logging.WARNING, logger="beliefgraph.gate.classifier"):
        first, second = llm(url).judge(PAIRS)
    assert first.classifier == "default"
    assert (second.verdict, second.classifier) == (Verdict.add, "llm:test-model")
    assert "malformed verdict" in caplog.text


def test_a_slow_llm_times_out_and_the_default_decides(
    llm_server: tuple[str, type[_Handler]],
) -> None:
    url, handler = llm_server

    def slow(body: dict[str, Any]) -> tuple[int, Any]:
        time.sleep(1.5)
        return 200, chat(json.dumps({"verdicts": []}))

    handler.reply = staticmethod(slow)
    started = time.perf_counter()
    out = llm(url, timeout=0.3).judge(PAIRS)
    assert time.perf_counter() - started < 1.4
    assert out == DEFAULT.judge(PAIRS)


def test_an_endpoint_that_is_down_falls_back() -> None:
    # a port nothing listens on: connection refused at once
    out = llm("http://127.0.0.1:9/v1", timeout=1.0).judge(PAIRS)
    assert out == DEFAULT.judge(PAIRS)


def test_the_settings_choose_the_classifier() -> None:
    assert isinstance(build_classifier(Settings()), DefaultClassifier)
    chosen = build_classifier(Settings(gate_llm_url="http://127.0.0.1:1/v1", gate_llm_model="m"))
    assert isinstance(chosen, LLMClassifier)
    assert chosen.name == "llm:m"


def test_below_the_floor_every_pair_is_add_and_at_it_the_structural_rule_applies() -> None:
    # the gate does not read same-entity beliefs below the floor: they could only be `add`
    assert DEFAULT.floor == SETTINGS.gate_structure_similarity
    old = view("The office Wi-Fi password is tulip-42.", id="w1", about=WIFI)
    new = view("The office Wi-Fi password changed.", about=WIFI)
    assert judge(new, old, DEFAULT.floor - 0.01)[0] is Verdict.add
    assert judge(new, old, DEFAULT.floor)[0] is Verdict.contradicts
    same = view("The office Wi-Fi password is tulip-42.", about=WIFI)
    assert judge(same, old, DEFAULT.floor - 0.01)[0] is Verdict.add


@pytest.mark.parametrize("kind", ["fact", "decision", "preference", "policy", "correction"])
def test_below_a_beliefs_floor_every_pair_is_add(kind: str) -> None:
    """The gate reads no neighbour under :meth:`floor_for`: nothing there may decide."""
    new = view("Actually, the office printer moved to room 12.", kind=kind)
    floor = DEFAULT.floor_for(new)
    olds = [
        view("The office printer is in room 4.", id="o1", kind=k, about=about)
        for k in ("fact", "correction", "decision", "credential")
        for about in (None, WIFI)
    ]
    for old in olds:
        for similarity in (floor - 0.01, floor - 0.2, 0.0):
            assert judge(new, old, similarity)[0] is Verdict.add, (old, similarity)


def test_a_belief_that_may_replace_by_slot_keeps_the_structural_floor() -> None:
    plain = DEFAULT.floor_for(view("I prefer tea."))
    assert plain == SETTINGS.gate_model_similarity
    assert DEFAULT.floor_for(view("The Wi-Fi is tulip42.", kind="correction")) == DEFAULT.floor
    assert DEFAULT.floor_for(view("It is tulip42.", kind="credential")) == DEFAULT.floor
    assert DEFAULT.floor_for(view("The Wi-Fi is tulip42.", about=WIFI)) == DEFAULT.floor
    assert DEFAULT.floor < plain


@pytest.mark.parametrize("opening", ["Actually,", "Update,", "Update:", "Correction:"])
def test_a_corrections_opening_is_not_part_of_its_attribute(opening: str) -> None:
    new = view(f"{opening} my Wi-Fi password is tulip-42.", kind="correction")
    old = view("My Wi-Fi password is hunter2.", id="old")
    assert judge(new, old, 0.7)[0] is Verdict.contradicts


def test_a_change_announced_far_in_meaning_still_replaces_what_it_changes() -> None:
    old = view("Nightly backups run at 02:00 UTC.")
    new = view("Moved the nightly backup to 04:30 UTC so it stops colliding with the ETL.")
    assert judge(new, old, 0.40)[0] is Verdict.contradicts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Pepper's heartworm pill is given on the 1st of each month.",
            "The fish tank filter gets changed on the 1st of each month.",
        ),
        ("The pill is given every Monday morning.", "Swapped the filter on Mondays instead."),
        ("Rent goes up in January.", "The gym membership changed in January."),
    ],
)
def test_a_change_that_shares_only_the_calendar_replaces_nothing(old: str, new: str) -> None:
    assert judge(view(new), view(old), 0.40)[0] is Verdict.add


def test_the_same_values_in_other_words_need_a_closer_meaning_than_a_change() -> None:
    old = view("Kenji and Ruth are on the R01 grant.")
    new = view("Dana joined the R01 as a co-investigator.")
    assert judge(new, old, 0.40)[0] is Verdict.add
    assert judge(new, old, 0.50)[0] is Verdict.noop


def test_the_plain_text_thresholds_must_stay_in_order() -> None:
    with pytest.raises(ValueError, match="SAME_VALUES"):
        Settings(gate_correction_similarity=0.5, gate_same_values_similarity=0.45)
    with pytest.raises(ValueError, match="RESTATE"):
        Settings(gate_same_values_similarity=0.9, gate_restate_similarity=0.8)
    assert Settings(gate_correction_similarity=0.45).gate_same_values_similarity == 0.45


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Choir practice is at 7pm.", "choir practice is at 8"),
        ("The dentist visit is Tue 3:15.", "dentist visit is Thursday 3:15"),
        ("The Porto trip is May 3-10.", "the Porto trip is May 10-17"),
        ("Locker 12 combination is 4411.", "Locker 12 combination is 9031."),
        ("As of 2024 the recycling fee is $40.", "The recycling fee is $45."),
        # more ways of saying so: "down to", "has a new", "is raising"
        ("The cat weighs 5 kg.", "the cat is down to 4.2 kg"),
        ("Physio is three times a week.", "physio is down to twice a week"),
        (
            "The boiler service contact is 555-0101.",
            "the boiler service has a new number, 555-0144",
        ),
        ("Our rent is $1,900 a month.", "landlord is raising our rent to $2,050"),
        (
            "I'm captain of the netball team.",
            "Handed the netball captaincy to Jo; I just play now.",
        ),
        # "'s" before where or when is "is": "the trip's in April"
        ("The Lisbon trip is planned for October.", "lisbon trip's in april"),
        # a note naming only the subject beside its new values
        ("physio is tuesdays 5pm", "physio thu 8:30am"),
        # the same thing named with a word of when, a change announced
        ("trash pickup is tuesday mornings", "actually trash day is wednesday, I had it wrong"),
        # a clause that calls its value new, after what happened
        ("My passport number is X4471902.", "Passport renewed, new number is X8830157."),
    ],
)
def test_another_value_of_the_same_kind_for_the_same_subject_corrects_it(
    old: str, new: str
) -> None:
    assert frames.relation(old, new) == "corrects"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # values before the verb name the thing: another locker, another course
        ("Locker 12 combination is 4411.", "Locker 14 combination is 9031."),
        ("Essays for Chem 110 are due at 12pm.", "Essays for Chem 120 are due at 5pm."),
        ("Hearing for matter 23-FA-0412 is at 10am.", "Hearing for matter 23-FA-0421 is at 2pm."),
        # whose it is, dropped, is another thing: ours is not grandpa's
        ("Grandpa's gate code is 7781.", "our gate code is 2290"),
        ("Grandpa\u2019s gate code is 7781.", "our gate code is 2290"),
        # numbers alone do not say what they measure
        ("The cat weighs 5 kg.", "The cat is 3 years old."),
        # a word that begins the same is not the same word: insulin is not insurance
        ("Our car insurance renews in March.", "Mom's insulin dose was reduced to 10 units."),
        # a fee "reduced for students" is said of the fee, not of who reduced it
        ("The library late fee is $5.", "The gym fee is reduced for students."),
        # when the rent is due is another attribute than how much it is
        ("Rent is $1,850 a month.", "rent is due on the 1st, late fee after the 5th"),
    ],
)
def test_another_value_for_another_thing_corrects_nothing(old: str, new: str) -> None:
    assert frames.relation(old, new, close=True) != "corrects"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The pharmacy is open Monday.", "The pharmacy is open Monday and Tuesday."),
        ("Feeding time is 7am.", "Feeding times are 7am and 6pm."),
        # a value of a kind the old one does not give: an exception, perhaps
        ("The gym opens at 6am.", "The gym opens at 8am on 1 January."),
    ],
)
def test_more_values_or_a_value_of_a_new_kind_add_to_it(old: str, new: str) -> None:
    assert frames.relation(old, new, close=True) != "corrects"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a participle after a preposition names a kind of thing: no change announced
        ("tomatoes in raised bed 1", "peppers going in raised bed 2"),
        # "going up" a way taken is no rise, and "too" before when adds another
        (
            "runner beans grow up the north fence",
            "sweet peas going up the north fence too this year",
        ),
        # a change of what is only named beside the old statement's thing: the pharmacy's
        # hours are not the flu shot
        ("flu shot done at cvs oct 2", "the cvs on main closes at 9 now"),
        ("flu shot done at cvs oct 2", "the cvs closes at 9 now"),
        ("flu shot done at cvs oct 2", "cvs hours changed to 9-5"),
        # a new value of another thing, got beside the old one
        ("My cell number is 555-0100", "Got a work phone, new number is 555-0101"),
        ("Lily's teacher is Mrs. Park", "Lily started piano, new teacher is Mr. Ito"),
        (
            "The main office address is 1 Elm St",
            "We opened a second site, new address is 9 Oak Ave",
        ),
    ],
)
def test_a_change_of_another_thing_beside_it_corrects_nothing(old: str, new: str) -> None:
    assert frames.relation(old, new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a value the old statement's thing holds, named as the subject: its dose
        ("I take 50mg sertraline each morning", "sertraline dose upped to 100mg"),
        ("rent is 1200", "the rent is going up to 1300"),
        ("group meeting mondays 10am", "group mtg is thursdays 2pm from now on"),
        # the thing, then a place, a time or company it is had with: its head is the thing
        ("Standup at 9am", "Standup for the platform team moved to 10am"),
        ("Acme meeting at 2pm Friday", "The meeting with the Acme team moved to 4pm"),
        ("Piano lessons Wednesdays 4pm", "Piano lessons with Mrs. Hale are Thursdays now"),
        ("Yoga class Mondays 6pm", "the yoga class at the Y is on Tuesdays now"),
        # a rise with when and how much after it, a limit said in other words
        ("Rent is 1200", "Rent going up the first of May to 1400."),
        (
            "Any order over $500 needs PI approval.",
            "PI approval threshold for orders is now $1,000.",
        ),
    ],
)
def test_a_change_of_what_the_old_statement_speaks_of_corrects_it(old: str, new: str) -> None:
    assert frames.relation(old, new) == "corrects"


@pytest.mark.parametrize(
    "text",
    [
        "The final decision is down to Maria.",
        "We don't have a new address yet.",
        "Does Dana have a new phone?",
        "Raising a ticket goes through the portal.",
        "Hot-swapping drives is supported.",
        "Bought a car, new to me, runs great.",
        "tomatoes in raised bed 1",
        "sweet peas going up the north fence",
    ],
)
def test_ordinary_sentences_announce_no_change(text: str) -> None:
    assert not frames.read(text).change


@pytest.mark.parametrize(
    "text",
    [
        "Check-in moved to 3pm.",
        "Log in changed to SSO.",
        "Prices going up this month.",
        "The price went up a dollar.",
        "The library is on reduced hours: 10-4.",
    ],
)
def test_changes_said_after_a_compound_or_with_when_are_read(text: str) -> None:
    assert frames.read(text).change


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a long number or an address names one thing, whatever words surround it
        ("My cell is 415 555 0142.", "Reach me at (415) 555-0142."),
        ("My library card number is 22019934.", "library card # 22019934"),
        ("Our support inbox is help@tallow.co.", "write to help@tallow.co for support"),
        # words in two forms are one word: "contribute" / "contribution"
        ("I contribute 6% of my salary.", "contribution: six percent"),
        ("Use 2\u00bd cups of flour.", "flour: 2.5 cups"),
        ("We stay on v4.1 of the SDK.", "SDK 4.1 is what we stay on"),
    ],
)
def test_the_same_telling_values_in_other_words_restate(old: str, new: str) -> None:
    assert frames.relation(old, new) == "restates"


@pytest.mark.parametrize(
    ("old", "new", "found"),
    [
        # a word cut short as notes cut words is the word
        ("Sam's birthday is March 4.", "oops sam's bday is march 14", "corrects"),
        ("My office hours are Mon 2-4.", "office hrs are tue 2-4 now", "corrects"),
        ("The team meeting is on Mondays.", "team mtg is on tuesdays now", "corrects"),
        # ... and a word that merely shares letters with another is another thing
        ("Jason's piano lesson is on Tuesdays.", "Jon's piano lesson is on Thursdays now.", None),
        ("Skating lessons cost $80.", "Ski lessons cost $80.", None),
        ("The preschool drop-off is at 8am.", "The pool drop-off is at 9am now.", None),
        (
            "The school budget meeting is on Monday.",
            "The school bus meeting is on Tuesday now.",
            None,
        ),
        ("Pottery class is $25 a session.", "PT class is $25 a session.", None),
    ],
)
def test_words_cut_short_are_the_words_and_no_others(old: str, new: str, found: str | None) -> None:
    assert frames.relation(old, new) == found


def test_values_read_fractions_and_codes_that_open_with_digits() -> None:
    assert values("Add 1\u00bc cups of water and \u00bd tsp salt.") == {"1.25", "0.5"}
    assert values("Matter 23-FA-0412 closes soon.") == {"23fa0412"}
    # letters between digits that make a date, a time range or a phrase are no code
    assert values("Taxes are due 15-Apr-2025.") == {"15", "month-04"}
    assert values("Open 10am-2pm.") == {"10:00", "14:00"}
    assert values("2-for-1 pizza") == {"2"}
    # a day of the month with no month named, not an ordinal before its noun or after a name
    assert values("Rent is due on the 1st.") == {"day-01"}
    assert values("Freeze: Fri 14th.") == {"fri", "day-14"}
    assert values("the 3rd floor printer") == {"3"}
    assert values("cite using APA 7th") == {"7"}
