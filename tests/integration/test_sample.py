"""The quick start's sample: what ``./dev up`` loads (``beliefgraph.sample``)."""

from __future__ import annotations

from pathlib import Path

from beliefgraph.models import SupersedeRequest
from beliefgraph.resources import resource_dir
from beliefgraph.sample import SampleFile, load_sample
from beliefgraph.store import Store


def own_sample(tmp_path: Path, ns: str, uid: str) -> Path:
    """The shipped sample, in a namespace and with ids of the test's own."""
    text = (resource_dir("samples") / "quickstart.json").read_text(encoding="utf-8")
    sample = tmp_path / "sample.json"
    sample.write_text(text.replace("user:sample", ns).replace('"sample-', f'"{uid}-'))
    return sample


def test_the_sample_loads_once_with_its_own_supersession_reasons_even_if_interrupted(
    store: Store, ns: str, uid: str, tmp_path: Path
) -> None:
    sample = own_sample(tmp_path, ns, uid)
    parsed = SampleFile.model_validate_json(sample.read_text())
    by_id = {b.id: b for b in parsed.beliefs}
    first = parsed.supersessions[0]

    # a load interrupted after its first supersession, as load_sample writes them
    store.create([b for b in parsed.beliefs if b.id not in {s.by_id for s in parsed.supersessions}])
    store.supersede(first.old, SupersedeRequest(by=by_id[first.by_id], reason=first.reason))
    assert load_sample(store, sample) == 1  # the next load finishes it

    chain = store.chain(f"{uid}-wifi-v1")
    assert [b.id for b in chain.beliefs] == [f"{uid}-wifi-v{i}" for i in (1, 2, 3)]
    assert [link.reason for link in chain.links] == [
        "the user said the password changed",
        "IT rotated it again",
    ]
    assert [b.status for b in chain.beliefs] == ["superseded", "superseded", "active"]
    assert load_sample(store, sample) == 0
    assert len(store.chain(f"{uid}-wifi-v3").links) == 2


def test_a_fresh_load_writes_each_replacement_as_the_samples_supersession(
    store: Store, ns: str, uid: str, tmp_path: Path
) -> None:
    sample = own_sample(tmp_path, ns, uid)
    assert load_sample(store, sample) == 5
    reasons = [link.reason for link in store.chain(f"{uid}-wifi-v3").links]
    assert reasons == ["the user said the password changed", "IT rotated it again"]
