"""The small sample the quick start loads: a 3-long Wi-Fi chain, a dose policy and a dose note."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from beliefgraph.models import BeliefCreate, SupersedeRequest, WritePath
from beliefgraph.resources import resource_dir
from beliefgraph.store import Store


class _Supersession(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str
    by_id: str
    reason: str


class SampleFile(BaseModel):
    """The shape of ``samples/quickstart.json``."""

    model_config = ConfigDict(extra="forbid")
    beliefs: list[BeliefCreate]
    supersessions: list[_Supersession] = []

    @field_validator("beliefs")
    @classmethod
    def _every_belief_has_an_id(cls, beliefs: list[BeliefCreate]) -> list[BeliefCreate]:
        # what tells a loaded sample from one to load: a belief without an id would be
        # written again on every load
        if any(b.id is None for b in beliefs):
            raise ValueError("every belief of the sample needs an id")
        return beliefs


def load_sample(store: Store, path: Path | None = None) -> int:
    """Load the sample unless it is already there; return how many beliefs were added.

    A belief that replaces another is written as that supersession, with the sample's
    reason (were it written with the rest, the gate would supersede the older one itself,
    with a reason of its own). An interrupted load is finished by the next.
    """
    path = path or resource_dir("samples") / "quickstart.json"
    sample = SampleFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    ids = [b.id for b in sample.beliefs if b.id is not None]
    have = {b.id for b in store.get_many(ids)}
    replacing = {s.by_id: s for s in sample.supersessions}
    plain = [b for b in sample.beliefs if b.id not in replacing and b.id not in have]
    if plain:
        store.create(plain, write_path=WritePath.cli, actor="sample")
    for belief in sample.beliefs:  # in the file's order: a replacement after what it replaces
        s = replacing.get(belief.id or "")
        if s is not None and belief.id not in have:
            store.supersede(
                s.old,
                SupersedeRequest(by=belief, reason=s.reason),
                actor="sample",
                write_path=WritePath.cli,
            )
    return len(ids) - len(have)
