"""The small sample the quick start loads: a 3-long Wi-Fi chain and a dose policy."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from beliefgraph.errors import Conflict
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


def load_sample(store: Store, path: Path | None = None) -> int:
    """Load the sample unless it is already there; return how many beliefs were added."""
    path = path or resource_dir("samples") / "quickstart.json"
    sample = SampleFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    ids = [b.id for b in sample.beliefs if b.id]
    if store.get_many(ids):
        return 0
    store.create(sample.beliefs, write_path=WritePath.cli, actor="sample")
    for s in sample.supersessions:
        try:
            store.supersede(s.old, SupersedeRequest(by_id=s.by_id, reason=s.reason), actor="sample")
        except Conflict:  # already applied by an earlier, interrupted load
            continue
    return len(sample.beliefs)
