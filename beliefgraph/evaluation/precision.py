"""``beliefgraph eval precision``: PrecisionMemBench's typed-belief cases on the real store.

The seed is imported into the real Neo4j through :mod:`beliefgraph.importer.documents`, isolated per
run: every belief id and user id gets a run-unique prefix (``e<8 hex>.test-user``) and every
namespace the same suffix (``domain:code.e<8 hex>``), cases' scopes mapped alike. Context
reads only the asking user's beliefs in the asked namespaces, and the curation gate compares
a write only with its own namespaces, so neither other runs nor anything else in the
database can reach a run.

Every static case and every session turn then goes through
:func:`beliefgraph.search.context.assemble`,
the code path of ``POST /v1/context``, with the case's user, scope, query and budget. The
``expect`` blocks are the answer key: only :func:`check` reads them, after the context is
built. Session turns run in order on one store; a turn's ``createBeliefAtTurn`` and
``updateBeliefAtTurn`` (what a memory writer extracted from that turn) are applied after the
turn is answered, and the sessions run one after the other, as the suite describes.

Scoring, per layer of the answer (``personaPrelude``, ``pinnedFacts``, ``relevantBeliefs``,
``openQuestions``): ``shouldOnlyInclude`` is set equality (precision and recall at once),
``mustInclude`` / ``mustExclude`` are subset / disjointness, ``nonEmpty``, ``isNull``,
``contains`` and ``mustNotContain`` apply to the prelude text (case-insensitive);
``noiseCheck.mustNotSurface`` applies to every layer; ``topicRetrieval`` (turns retrieved)
is empty here, since context returns beliefs, not turns. Keys starting with ``_`` are notes;
an expectation this module does not know fails the case rather than passing silently.

Precision and recall are those of the relevant layer against ``shouldOnlyInclude``; the
drift of a turn is noise surfaced / (relevant + pinned) surfaced, where noise is a relevant
belief outside ``shouldOnlyInclude`` or anything named by ``mustNotSurface``/``mustExclude``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from beliefgraph.access import DEVELOPMENT_CALLER, Caller
from beliefgraph.errors import InvalidInput
from beliefgraph.importer.documents import (
    Isolation,
    add_aliases,
    import_documents,
    load_documents,
    parse_documents,
)
from beliefgraph.search.context import assemble
from beliefgraph.search.context_models import ContextRequest, ContextResponse

#: the user a case speaks for when it names none (the suite's convention)
DEFAULT_USER = "test-user"
#: where the seed keeps universal preferences (the server's default persona namespace)
PERSONA_NAMESPACES = ("user:universal",)
LAYERS = ("personaPrelude", "pinnedFacts", "relevantBeliefs", "openQuestions")


@dataclass
class CaseResult:
    """The verdict on one static case or one session turn."""

    id: str
    suite: str
    passed: bool
    failures: list[str]
    precision: float | None
    recall: float | None
    drift: float
    surfaced: dict[str, Any]
    session: str | None = None
    turn: int | None = None


@dataclass
class PrecisionReport:
    """The whole run; :meth:`summary` is what ``--json`` writes."""

    run_id: str
    cases: list[CaseResult] = field(default_factory=list)

    def _of(self, suite: str) -> list[CaseResult]:
        return [c for c in self.cases if c.suite == suite]

    def summary(self) -> dict[str, Any]:
        """``{"static_passed", "static_total", "session_passed", "session_total",
        "mean_precision", "mean_recall", "max_drift", "cases": [...]}``."""
        static, session = self._of("static"), self._of("session")
        precisions = [c.precision for c in self.cases if c.precision is not None]
        recalls = [c.recall for c in self.cases if c.recall is not None]
        return {
            "run_id": self.run_id,
            "static_passed": sum(c.passed for c in static),
            "static_total": len(static),
            "session_passed": sum(c.passed for c in session),
            "session_total": len(session),
            "mean_precision": round(sum(precisions) / len(precisions), 4) if precisions else None,
            "mean_recall": round(sum(recalls) / len(recalls), 4) if recalls else None,
            "max_drift": round(max((c.drift for c in session), default=0.0), 4),
            "cases": [asdict(c) for c in self.cases],
        }


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise InvalidInput(f"{path}: {e}", field=str(path)) from e


def run(
    store: Any,
    seed: Path,
    cases: Path,
    sessions: Path | None = None,
    *,
    caller: Caller = DEVELOPMENT_CALLER,
    run_id: str | None = None,
) -> PrecisionReport:
    """Import the seed under a fresh run prefix and score every case and session turn.

    Returns:
        The report (one :class:`CaseResult` per static case and per turn).

    Raises:
        MalformedDocument: the seed (or a turn's new belief) breaks the document format.
        InvalidInput: a case file cannot be read.
        StoreUnavailable: Neo4j cannot be reached.
    """
    run_id = run_id or f"e{uuid.uuid4().hex[:8]}"
    isolation = Isolation.run(run_id)
    import_documents(store, load_documents(seed), isolation=isolation, actor="eval")
    report = PrecisionReport(run_id=run_id)
    for case in _read_json(cases):
        response = _ask(store, case, case.get("query", ""), isolation, caller)
        report.cases.append(_score(case["caseId"], "static", case["expect"], response, isolation))
    if sessions is not None:
        for session in _read_json(sessions):
            for turn in session["turns"]:
                response = _ask(store, turn, turn.get("userMessage", ""), isolation, caller)
                result = _score(
                    f"{session['caseId']}#{turn['turnIndex']}",
                    "session",
                    turn["expect"],
                    response,
                    isolation,
                )
                result.session, result.turn = session["caseId"], turn["turnIndex"]
                report.cases.append(result)
                _apply_turn_writes(store, turn, isolation)
    return report


def _ask(
    store: Any, case: Mapping[str, Any], message: str, isolation: Isolation, caller: Caller
) -> ContextResponse | str:
    """The context of one case or turn, or why the context request refuses it (one case the
    request cannot take is scored as failed; it never hides the others)."""
    budget = (case.get("budget") or {}).get("maxBeliefs")
    try:
        request = ContextRequest(
            user=isolation.user(case.get("userId") or DEFAULT_USER),
            namespaces=[isolation.namespace(ns) for ns in case.get("scope") or []],
            message=message,
            budget=budget,
            persona_namespaces=[isolation.namespace(ns) for ns in PERSONA_NAMESPACES],
        )
    except ValidationError as e:
        error = e.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"the context request refuses the case: {where}: {error['msg']}"
    return assemble(store.db, store.embedder, request, caller=caller)


def _apply_turn_writes(store: Any, turn: Mapping[str, Any], isolation: Isolation) -> None:
    created = turn.get("createBeliefAtTurn")
    if created:
        docs = parse_documents([created], source=f"turn {turn['turnIndex']}")
        import_documents(store, docs, isolation=isolation, actor="eval")
    update = turn.get("updateBeliefAtTurn")
    if update:
        add_aliases(store, isolation.belief_id(update["beliefId"]), update.get("addAliases", []))


def surfaced_layers(response: ContextResponse, isolation: Isolation) -> dict[str, Any]:
    """The answer as the suite's layers, with the document's own ids."""

    def ids(items: Sequence[Any]) -> list[str]:
        return [isolation.original_id(i.belief.id) for i in items]

    prelude = response.persona_prelude
    return {
        "personaPrelude": prelude.text if prelude is not None else None,
        "pinnedFacts": ids(response.pinned_facts),
        "relevantBeliefs": ids(response.relevant_beliefs),
        "openQuestions": ids(response.open_questions),
    }


def check(expect: Mapping[str, Any], surfaced: Mapping[str, Any]) -> list[str]:
    """Every expectation the surfaced layers break (empty: the case passes)."""
    failures: list[str] = []
    for name, rules in expect.items():
        if name.startswith("_"):
            continue
        if name in LAYERS:
            failures += _check_layer(name, rules, surfaced)
        elif name == "noiseCheck":
            everywhere = {
                i for layer in LAYERS[1:] for i in surfaced.get(layer) or [] if isinstance(i, str)
            }
            leaked = sorted(everywhere & set(rules.get("mustNotSurface", [])))
            if leaked:
                failures.append(f"noiseCheck: surfaced {leaked}")
        elif name == "topicRetrieval":
            wanted = rules.get("shouldRetrieveTurns", [])
            if wanted:
                failures.append(f"topicRetrieval: turns {wanted} are not retrieved by context")
        else:
            failures.append(f"unknown expectation {name!r}")
    return failures


def _check_layer(layer: str, rules: Mapping[str, Any], surfaced: Mapping[str, Any]) -> list[str]:
    failures: list[str] = []
    value = surfaced.get(layer)
    for rule, arg in rules.items():
        if rule.startswith("_"):
            continue
        if rule in LAYERS:  # a layer's rules written inside another layer: check them too
            failures += _check_layer(rule, arg, surfaced)
            continue
        ok = _rule_holds(layer, rule, arg, value)
        if ok is None:
            failures.append(f"{layer}: unknown rule {rule!r}")
        elif not ok:
            failures.append(f"{layer}.{rule} {arg!r}: got {value!r}")
    return failures


def _rule_holds(layer: str, rule: str, arg: Any, value: Any) -> bool | None:
    """Whether one rule holds; ``None`` for a rule this module does not know."""
    if layer == "personaPrelude":
        text = (value or "").lower()
        if rule == "nonEmpty":
            return bool(value) == bool(arg)
        if rule == "isNull":
            return (value is None) == bool(arg)
        if rule == "contains":
            return all(s.lower() in text for s in arg)
        if rule == "mustNotContain":
            return not any(s.lower() in text for s in arg)
        return None
    got = set(value or [])
    if rule == "shouldOnlyInclude":
        return got == set(arg)
    if rule == "mustInclude":
        return set(arg) <= got
    if rule == "mustExclude":
        return not (set(arg) & got)
    return None


def _expected_relevant(expect: Mapping[str, Any]) -> set[str] | None:
    rules = expect.get("relevantBeliefs") or {}
    return set(rules["shouldOnlyInclude"]) if "shouldOnlyInclude" in rules else None


def _forbidden(expect: Mapping[str, Any]) -> set[str]:
    out = set((expect.get("noiseCheck") or {}).get("mustNotSurface", []))
    for layer in LAYERS[1:]:
        out |= set((expect.get(layer) or {}).get("mustExclude", []))
    return out


def _score(
    case_id: str,
    suite: str,
    expect: Mapping[str, Any],
    response: ContextResponse | str,
    isolation: Isolation,
) -> CaseResult:
    if isinstance(response, str):
        empty: dict[str, Any] = {
            layer: None if layer == "personaPrelude" else [] for layer in LAYERS
        }
        return CaseResult(case_id, suite, False, [response], None, None, 0.0, empty)
    surfaced = surfaced_layers(response, isolation)
    failures = check(expect, surfaced)
    relevant, pinned = set(surfaced["relevantBeliefs"]), set(surfaced["pinnedFacts"])
    wanted = _expected_relevant(expect)
    precision = recall = None
    if wanted is not None:
        hit = len(relevant & wanted)
        precision = hit / len(relevant) if relevant else 1.0
        recall = hit / len(wanted) if wanted else 1.0
    noise = (relevant - wanted if wanted is not None else set()) | (
        (relevant | pinned) & _forbidden(expect)
    )
    shown = relevant | pinned
    return CaseResult(
        id=case_id,
        suite=suite,
        passed=not failures,
        failures=failures,
        precision=precision,
        recall=recall,
        drift=len(noise) / len(shown) if shown else 0.0,
        surfaced=surfaced,
    )


def render(summary: Mapping[str, Any]) -> str:
    """A short human-readable report of :meth:`PrecisionReport.summary`."""
    lines = [
        f"run {summary['run_id']}",
        f"static cases:  {summary['static_passed']}/{summary['static_total']}",
        f"session turns: {summary['session_passed']}/{summary['session_total']}",
        f"mean precision {summary['mean_precision']}, mean recall {summary['mean_recall']}, "
        f"max drift {summary['max_drift']:.2f}",
    ]
    for case in summary["cases"]:
        if not case["passed"]:
            lines.append(f"FAIL {case['id']}: {'; '.join(case['failures'])}")
    return "\n".join(lines)
