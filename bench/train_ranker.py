"""Fit the planner's ranker (beliefgraph/planner/ranker.json) on the governance rounds read.

    .venv/bin/python bench/train_ranker.py [--report] [--l2 1.0] [--steps 600]

Every scenario of the read rounds (``USED`` of ``bench/governance_results.py``) and of every
configuration of the shared packets it scores is stored in a fresh namespace of the Neo4j
that NEO4J_URI names, and asked through the planner with the rules alone; the ranker's
features of every candidate are recorded, with one label: the scenario's target (or a
superseded belief whose head is the target). So are the exact questions of realistic stores
of seed 11 (``bench/realistic_stores.py``; the evaluation's are seed 7), 60 of 50 beliefs and
100 small ones of 8, labelled with the beliefs about the thing asked, the one that answers it
counting double. The labels are read here only; they never reach the store.

The fit is a conditional logit - a softmax over each scenario's candidates - by full-batch
Adam from zero weights, so it is the same on every run; each configuration of the shared
packets counts twice (``SHARED_WEIGHT``). ``--report`` first scores a
leave-one-round-out fit of every round (fitted on the others, decided on that one with the
rules' action) and writes ``bench/results/ranker.md``: what the ranker gains on an author it
was not fitted on. The rounds set aside unread are never loaded.

The action models are fitted on the panel's decisions: one on the scenarios as written
(``actions.json``), one on the same scenarios with every hint of the action a belief allows
taken away (``actions_unhinted.json``), as REST writes without ``allowed_action`` and imports
store them; the planner asks the one fitted on beliefs like the one that governs. The second
is also fitted on the plain reads (a cost, where a thing is, when it is serviced, a
preference, a plan) that the belief about the thing governs, due ``answer``, of the realistic
stores and of the stores of ordinary notes written blind (``bench/ordinary/``, each scored
once before it joins; they teach the action model only):
those stores are ordinary notes stored without a hint, and the packets stripped of theirs
would teach it only that a belief without a hint is an adversarial packet's.

The report also decides each round again as a writer who gives no hint would have stored it:
with the model fitted with hints, and with the one fitted without (the planner's there).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier  # type: ignore[import-untyped]
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from governance_results import PACKETS, USED, beyond_targets  # noqa: E402
from neo4j import GraphDatabase  # noqa: E402  (after the path set-up above)
from realistic_stores import generate  # noqa: E402
from run_info import BENCHMARKS  # noqa: E402

from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.embeddings import load_embedder  # noqa: E402
from beliefgraph.evaluation.governance import (  # noqa: E402
    COSTS,
    configurations,
    load_scenario,
    outcome,
    read_configuration,
)
from beliefgraph.evaluation.packets import Packet, read_packet  # noqa: E402
from beliefgraph.evaluation.stores import (  # noqa: E402
    PLAIN_READS,
    StoreNamespace,
    load_namespace,
    read_stores,
)
from beliefgraph.language.stakes import request_acts  # noqa: E402
from beliefgraph.language.words import Terms  # noqa: E402
from beliefgraph.models import ActionClass  # noqa: E402
from beliefgraph.planner.actions import (  # noqa: E402
    ACTIONS_FILE,
    UNHINTED_ACTIONS_FILE,
    ActionModel,
    Actions,
    action_features,
    decides_for,
)
from beliefgraph.planner.assess import Assessment, Candidate  # noqa: E402
from beliefgraph.planner.models import QueryRequest  # noqa: E402
from beliefgraph.planner.planner import Planner  # noqa: E402
from beliefgraph.planner.precedence import decide  # noqa: E402
from beliefgraph.planner.ranking import (  # noqa: E402
    TREES_FILE,
    WEIGHTS_FILE,
    Chooser,
    Panel,
    Ranker,
    Trees,
    eligible,
    features,
)
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

SHARED = BENCHMARKS / "governance"
#: the realistic stores fitted on: another seed than the evaluation's
STORE_SEED = 11
#: (namespaces, beliefs each): big stores of many similar things, and small plain ones
STORE_SETS = ((60, 50), (100, 8))
#: their round's name (always fitted on; their action is not scored)
STORES = "stores"
#: the round name of the stores of ordinary notes written blind
ORDINARY_ROUND = "ordinary"
#: the rounds of stores: their questions carry ``answer`` as a placeholder, so only their plain
#: reads teach the action model
_STORE_ROUNDS = frozenset({STORES, ORDINARY_ROUND})
#: the shared packets' round name
SHARED_ROUND = "shared"
#: how much each configuration of the shared packets counts in the fit against one scenario
#: of a round: they are the specification every change must keep (95/95). Counted once, a fit
#: on rounds 1-12 and round 14 lost three of them; twice, it keeps them, and left out one
#: round at a time it is as good on the blind rounds (347 both right against 348).
SHARED_WEIGHT = 2.0
#: how much a realistic store's plain read counts in the fit of the model for beliefs without
#: a hint, against one scenario of a round: enough that ordinary notes are answered, little
#: enough that the packets stripped of their hints keep their caution (the weights tried, in
#: folds by round: governance-history.md, round 62)
STORE_READ_WEIGHT = 0.3
RESULTS = ROOT / "bench" / "results"
#: stores of ordinary notes written blind; a file joins the folder once it has been scored
#: (a new one waits outside it, unread, until then)
ORDINARY = ROOT / "bench" / "ordinary"


def ordinary_files() -> list[Path]:
    """The stores of ordinary notes fitted on: every file of ``bench/ordinary/``."""
    return sorted(ORDINARY.glob("*.json"))


@dataclass
class Case:
    """One scenario as asked: its candidates' features and labels, and what to re-decide."""

    round: str
    query: str
    expected: ActionClass
    targets: frozenset[str]
    candidates: list[Candidate]
    rows: list[dict[str, float]]
    labels: list[float]
    #: a realistic store's question of a plain kind (:data:`PLAIN_READS`): due ``answer``
    plain_read: bool = False


class Recorder:
    """A chooser that leaves the rules' winner in place and keeps what it was shown."""

    def __init__(self) -> None:
        self.seen: tuple[list[Assessment], Mapping[str, Candidate], Assessment | None] | None
        self.seen = None

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
        rows: Sequence[Mapping[str, float]] | None = None,
    ) -> Assessment | None:
        self.seen = (list(assessed), dict(heads), winner)
        return winner


def packets() -> list[tuple[str, Packet]]:
    """The read rounds' packets, and every configuration of the shared packets that
    ``bench/governance_results.py`` scores (with annotations, and with the noise variants
    that add a broad block policy or a policy quoting the request), by round."""
    found = [
        (folder, read_packet(p))
        for folder in USED
        for p in sorted((PACKETS / folder).glob("*.json"))
    ]
    for config in [*configurations(), *beyond_targets()]:
        found.append((SHARED_ROUND, read_configuration(SHARED, config)))
    return found


def record(store: Store) -> list[Case]:
    """Ask every scenario, then every exact question of the realistic stores, by the rules."""
    recorder = Recorder()
    planner = Planner(store.db, store.embedder, ranker=recorder)
    run = uuid.uuid4().hex[:8]
    serial = itertools.count()  # one namespace per scenario, recorded or not
    cases: list[Case] = []

    def ask(
        where: str,
        query: str,
        namespace: str,
        expected: ActionClass,
        targets: frozenset[str],
        best: str | None = None,
        plain_read: bool = False,
    ) -> None:
        """Record one question; ``targets`` are the right answers, ``best`` counts double."""
        recorder.seen = None
        planner.query(QueryRequest(query=query, namespaces=[namespace]))
        if recorder.seen is None:
            return  # nothing governs by the rules: the ranker is never asked
        assessed, heads, winner = recorder.seen
        rows, labels = [], []
        # the eligible candidates' features, measured among all of them (as the planner does)
        for a, row in zip(assessed, features(assessed, heads, winner), strict=True):
            if not eligible(a, heads):
                continue
            head = heads.get(a.candidate.id)
            right = a.candidate.id in targets or (head is not None and head.id in targets)
            rows.append(row)
            labels.append((2.0 if a.candidate.id == best else 1.0) if right else 0.0)
        candidates = [a.candidate for a in assessed]
        cases.append(
            Case(where, query, expected, targets, candidates, rows, labels, plain_read=plain_read)
        )

    for folder, packet in packets():
        for i, scenario in enumerate(packet.scenarios):
            loaded = load_scenario(store, scenario, run=f"{run}-{next(serial)}", index=i)
            targets = frozenset(
                mid
                for mid, m in zip(loaded.ids, scenario.memory_store, strict=True)
                if m.role == "target"
            )
            ask(
                folder,
                scenario.query,
                loaded.namespace,
                ActionClass(scenario.expected_action),
                targets,
            )
    # Realistic stores of another seed than the evaluation's (7): many similar things, where
    # the belief about exactly the thing asked must win over the ones that read alike.
    spaces = [
        (STORES, f"{size}-{i}", StoreNamespace.model_validate(raw))
        for count, size in STORE_SETS
        for i, raw in enumerate(generate(count, size, STORE_SEED)["namespaces"])
    ]
    # ... and the stores of ordinary notes written blind, each once scored (bench/ordinary/):
    # people's own wording, which the generator's does not reach
    spaces += [
        (ORDINARY_ROUND, f"{path.stem}-{i}", ns)
        for path in ordinary_files()
        for i, ns in enumerate(read_stores(path).namespaces)
    ]
    for where, name, ns in spaces:
        loaded_ns = load_namespace(store, ns, run=f"{run}-stores-{name}", index=0)
        ns_id = loaded_ns.namespace
        for q in ns.questions:
            if q.kind_of_question == "exact" and q.expected is not None:
                about = frozenset(loaded_ns.ids[b] for b in q.about)
                answer = loaded_ns.ids[q.expected]
                plain = q.asked_type in PLAIN_READS
                ask(where, q.query, ns_id, ActionClass.answer, about, answer, plain_read=plain)
    return cases


def _stacked(
    cases: Sequence[Case], names: Sequence[str]
) -> tuple[list[Case], np.ndarray, np.ndarray, np.ndarray]:
    """The cases with a right candidate (none of the ordinary stores'), every one's candidates
    stacked into one feature matrix (columns in the order of ``names``), each case's weight in
    the fit (a shared packet's configuration counts :data:`SHARED_WEIGHT` times) and each row's
    case."""
    # the ordinary stores teach the action model only: people's notes, mostly old and new
    # versions of one thing, taught the ranker that the newer note wins, and a contested
    # claim came to govern over the decision it contests
    groups = [c for c in cases if c.rows and sum(c.labels) > 0 and c.round != ORDINARY_ROUND]
    x = np.array([[row[n] for n in names] for c in groups for row in c.rows])
    weight = np.array([SHARED_WEIGHT if c.round == SHARED_ROUND else 1.0 for c in groups])
    case = np.repeat(np.arange(len(groups)), [len(c.rows) for c in groups])
    return groups, x, weight, case


def fit(cases: Sequence[Case], names: Sequence[str], *, l2: float, steps: int) -> dict[str, float]:
    """Conditional-logit weights by full-batch Adam from zero (deterministic); a shared
    packet's configuration counts :data:`SHARED_WEIGHT` times. Every case's candidates are
    stacked into one matrix and each step's softmax is taken per case over its slice."""
    groups, x, weight, case = _stacked(cases, names)
    y = np.concatenate([np.array(c.labels) / sum(c.labels) for c in groups])
    starts = np.concatenate([[0], np.cumsum([len(c.rows) for c in groups])[:-1]])
    w = np.zeros(len(names))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    n = weight.sum()
    for t in range(1, steps + 1):
        s = x @ w
        e = np.exp(s - np.maximum.reduceat(s, starts)[case])
        p = e / np.add.reduceat(e, starts)[case]
        grad = l2 * w / n + x.T @ ((p - y) * weight[case]) / n
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.1 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return {name: round(float(x), 4) for name, x in zip(names, w, strict=True)}


#: the tree ensemble's shape: small trees, many of them, each a small step
TREE_PARAMS = {
    "n_estimators": 300,
    "max_depth": 4,
    "learning_rate": 0.05,
    "subsample": 0.8,
    "random_state": 0,
}


def fit_trees(cases: Sequence[Case], names: Sequence[str]) -> list[list[list[float]]]:
    """Boosted trees that tell a right candidate from the others, one candidate at a time
    (seeded, so the same on every run); a shared packet's configuration counts
    :data:`SHARED_WEIGHT` times. Each tree is returned as the nodes
    :class:`~beliefgraph.planner.ranking.Trees` reads, the learning rate folded into the
    leaves."""
    groups, x, weight, case = _stacked(cases, names)
    y = np.array([label > 0 for c in groups for label in c.labels])
    model = GradientBoostingClassifier(**TREE_PARAMS).fit(x, y, sample_weight=weight[case])
    rate = float(TREE_PARAMS["learning_rate"])
    trees = []
    for estimator in model.estimators_[:, 0]:
        t = estimator.tree_
        trees.append(
            [
                [round(float(t.value[n][0][0]) * rate, 6)]
                if t.children_left[n] < 0
                else [
                    int(t.feature[n]),
                    float(t.threshold[n]),
                    int(t.children_left[n]),
                    int(t.children_right[n]),
                ]
                for n in range(t.node_count)
            ]
        )
    return trees


def without_hints(cases: Sequence[Case]) -> list[Case]:
    """``cases`` as a writer who gives no hint of the action a belief allows would have
    stored them (through REST without ``allowed_action``, or imported from a log)."""
    return [
        replace(c, candidates=[replace(x, allowed_action=None) for x in c.candidates])
        for c in cases
    ]


def score(
    cases: Sequence[Case],
    ranker: Chooser | Panel | None,
    actions: Actions | None = None,
) -> Counter[str]:
    """Target, action, both right and false certainties, deciding each case again."""
    tally: Counter[str] = Counter()
    for c in cases:
        request, kinds = Terms.of(c.query), request_acts(c.query)
        d = decide(request, kinds, c.candidates, ranker=ranker, actions=actions)
        target = d.governing in c.targets
        action = d.action == c.expected
        tally["n"] += 1
        tally["target"] += target
        tally["action"] += action
        tally["both"] += target and action
        tally["false_certainty"] += outcome(c.expected, d.action) == "false_certainty"
    return tally


#: the action model's regularisation (scikit-learn's ``C``): left out one round at a time,
#: 0.05 made fewer false certainties than 0.1 and a lower loss by the evaluation's costs,
#: for fewer both right (the values tried: governance-history.md, after round 59)
ACTION_C = 0.05
#: the loss of any action other than the one due, beside the evaluation's (``COSTS``): with
#: none, the model buys false certainties back with overblocking; with 2, both right rose
#: over the rules' as false certainties fell
MISS = 2.0
#: a reading or word is a feature of the action model where this many scenarios show it
ACTION_MIN_COUNT = 10


def action_rows(
    cases: Sequence[Case], ranker: Chooser | Panel, *, store_reads: float = 0.0
) -> tuple[list[dict[str, float]], list[ActionClass], list[float]]:
    """Each scenario's features as ``ranker`` decides it, the action due, and its weight in
    the fit (a shared packet's configuration counts :data:`SHARED_WEIGHT` times). A realistic
    store's question counts ``store_reads`` where it is a plain read and the belief about the
    thing governs it. The rest of the stores are left out: their questions carry ``answer`` as
    a placeholder, and a code or a change has no sure action. So is what the model never
    decides (history, a contested belief)."""
    rows, due, weight = [], [], []
    for c in cases:
        if c.round in _STORE_ROUNDS and not (store_reads and c.plain_read):
            continue
        request, kinds = Terms.of(c.query), request_acts(c.query)
        d = decide(request, kinds, c.candidates, ranker=ranker)
        governor = next((x for x in c.candidates if x.id == d.governing), None)
        if not decides_for(governor):
            continue  # history, or contested: the rules' action stands
        if c.round in _STORE_ROUNDS and governor.id not in c.targets:
            continue  # another thing's belief: what it may allow is not this question's
        rows.append(action_features(request, kinds, d, governor))
        due.append(c.expected)
        shared = c.round == SHARED_ROUND
        weight.append(store_reads if c.round in _STORE_ROUNDS else SHARED_WEIGHT if shared else 1.0)
    return rows, due, weight


def fit_actions(
    cases: Sequence[Case], ranker: Chooser | Panel, *, store_reads: float = 0.0
) -> tuple[ActionModel, dict[str, object]]:
    """The action model fitted on ``ranker``'s decisions of ``cases`` (lbfgs from the same
    start: the same on every run), and what its file (``actions.json``,
    ``actions_unhinted.json``) holds of it; the realistic stores' plain reads count
    ``store_reads`` each (none by default)."""
    rows, due, weight = action_rows(cases, ranker, store_reads=store_reads)
    seen = Counter(name for row in rows for name in row)
    names = sorted(name for name, n in seen.items() if n >= ACTION_MIN_COUNT)
    x = np.array([[row.get(name, 0.0) for name in names] for row in rows])
    model = LogisticRegression(C=ACTION_C, max_iter=5000)
    model.fit(x, np.array([a.value for a in due]), sample_weight=np.array(weight))
    classes = [str(c) for c in model.classes_]
    losses = [
        [
            COSTS[outcome(ActionClass(d), ActionClass(t))] + (MISS if d != t else 0.0)
            for t in classes
        ]
        for d in classes
    ]
    weights = {
        name: [round(float(w), 5) for w in model.coef_[:, j]] for j, name in enumerate(names)
    }
    intercept = [round(float(b), 5) for b in model.intercept_]
    data: dict[str, object] = {
        "classes": classes,
        "weights": weights,
        "intercept": intercept,
        "losses": losses,
    }
    return ActionModel(tuple(classes), weights, intercept, losses), data


#: the report's columns: how each held-out round is decided
_COLUMNS = (
    "rules",
    "weights",
    "trees",
    "panel",
    "panel + actions",
    "trees + actions",
    "no hints: panel + actions",
    "no hints: panel + action model refitted without hints",
)


def report(cases: Sequence[Case], names: Sequence[str], *, l2: float, steps: int) -> str:
    lines = [
        "# The planner's ranker, left out one round at a time",
        "",
        "`.venv/bin/python bench/train_ranker.py --report`: for each round, the rankers are",
        "fitted on every other round, the shared packets and the realistic stores of seed 11,",
        "and that round is decided again: by the rules alone, with the linear weights alone,",
        "with the trees alone, with the panel of both the planner uses (each choice",
        "carried to its action, the trees' taken unless it answers outright where the",
        "weights' would do less), and with the panel and the",
        "action model fitted on the other rounds' panel decisions (the planner's); last,",
        "the trees alone with an action model fitted on their decisions, for comparison.",
        "The last two columns decide the round again as a writer who gives no hint of the",
        "action a belief allows would have stored it: with the panel and the action model",
        "fitted with hints, and with the one refitted on the other rounds stored so and on",
        "the realistic stores' plain reads (the planner's for such a belief; the rankers are",
        "fitted on hinted beliefs in both).",
        "Scenarios where the rules find nothing to govern are left out (the rankers are",
        "never asked there). Each cell:",
        "target / action / both right / false certainties.",
        "",
        "| round | n | " + " | ".join(_COLUMNS) + " |",
        "|---|---|" + "---|" * len(_COLUMNS),
    ]
    totals: dict[str, Counter[str]] = {column: Counter() for column in _COLUMNS}
    for held in sorted({c.round for c in cases} - _STORE_ROUNDS):
        train = [c for c in cases if c.round != held]
        test = [c for c in cases if c.round == held]
        weights = Ranker(fit(train, names, l2=l2, steps=steps))
        trees = Trees(names, fit_trees(train, names))
        panel = Panel((trees, weights))
        hinted = fit_actions(train, panel)[0]
        unhinted = fit_actions(without_hints(train), panel, store_reads=STORE_READ_WEIGHT)[0]
        bare = without_hints(test)
        row = {
            "rules": score(test, None),
            "weights": score(test, weights),
            "trees": score(test, trees),
            "panel": score(test, panel),
            "panel + actions": score(test, panel, hinted),
            "trees + actions": score(test, trees, fit_actions(train, trees)[0]),
            "no hints: panel + actions": score(bare, panel, hinted),
            "no hints: panel + action model refitted without hints": score(bare, panel, unhinted),
        }
        for column in _COLUMNS:
            totals[column] += row[column]
        lines.append(_line(held, row))
    lines.append(_line("**all**", totals))
    return "\n".join(lines) + "\n"


def _line(label: str, row: Mapping[str, Counter[str]]) -> str:
    keys = ("target", "action", "both", "false_certainty")
    cells = [" / ".join(str(row[column][k]) for k in keys) for column in _COLUMNS]
    return f"| {label} | {row['rules']['n']} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="write bench/results/ranker.md")
    parser.add_argument("--l2", type=float, default=1.0, help="weight decay (default 1.0)")
    parser.add_argument("--steps", type=int, default=600, help="Adam steps (default 600)")
    args = parser.parse_args()
    settings = Settings()
    neo = settings.neo4j
    secret = neo.password.get_secret_value()
    driver = GraphDatabase.driver(neo.uri, auth=(neo.user, secret) if secret else None)
    try:
        store = Store(driver, load_embedder(settings.cache_dir), database=neo.database)
        init_schema(store.db)
        cases = record(store)
    finally:
        driver.close()
    names = sorted({name for c in cases for row in c.rows for name in row})
    if args.report:
        text = report(cases, names, l2=args.l2, steps=args.steps)
        (RESULTS / "ranker.md").write_text(text, encoding="utf-8")
        print(text)
    weights = fit(cases, names, l2=args.l2, steps=args.steps)
    trees = fit_trees(cases, names)
    rounds = sorted({c.round for c in cases})
    # what the rankers are fitted on (the ordinary stores teach the action model only)
    ranked = [c for c in cases if c.round != ORDINARY_ROUND]
    ranked_rounds = sorted({c.round for c in ranked})
    WEIGHTS_FILE.write_text(
        json.dumps(
            {
                "fitted_by": "bench/train_ranker.py",
                "rounds": ranked_rounds,
                "scenarios": len(ranked),
                "l2": args.l2,
                "steps": args.steps,
                "weights": weights,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    TREES_FILE.write_text(
        json.dumps(
            {
                "fitted_by": "bench/train_ranker.py",
                "rounds": ranked_rounds,
                "scenarios": len(ranked),
                "params": TREE_PARAMS,
                "features": names,
                "trees": trees,
            },
            separators=(",", ":"),
        )
        + "\n",
        encoding="utf-8",
    )
    panel = Panel((Trees(names, trees), Ranker(weights)))
    for path, fitted_on, store_reads in (
        (ACTIONS_FILE, cases, 0.0),
        (UNHINTED_ACTIONS_FILE, without_hints(cases), STORE_READ_WEIGHT),
    ):
        _, actions = fit_actions(fitted_on, panel, store_reads=store_reads)
        fitted = {"fitted_by": "bench/train_ranker.py", "rounds": rounds, "C": ACTION_C}
        if store_reads:
            fitted |= {
                "store_reads": store_reads,
                "store_seed": STORE_SEED,
                "ordinary": [p.name for p in ordinary_files()],
            }
        path.write_text(
            json.dumps({**fitted, **actions}, separators=(",", ":")) + "\n",
            encoding="utf-8",
        )
    print(
        f"{len(cases)} scenarios from {len(rounds)} rounds; in {WEIGHTS_FILE}, {TREES_FILE}, "
        f"{ACTIONS_FILE}, {UNHINTED_ACTIONS_FILE}"
    )


if __name__ == "__main__":
    main()
