"""The sample file's shape (``beliefgraph.sample``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from beliefgraph.sample import SampleFile


def test_every_belief_of_the_sample_needs_an_id() -> None:
    # without one, a loaded sample could not be told from one to load
    with pytest.raises(ValidationError, match="needs an id"):
        SampleFile.model_validate(
            {"beliefs": [{"text": "Tea is nice.", "namespaces": ["user:me"]}]}
        )
    loaded = SampleFile.model_validate(
        {"beliefs": [{"id": "s-1", "text": "Tea is nice.", "namespaces": ["user:me"]}]}
    )
    assert [b.id for b in loaded.beliefs] == ["s-1"]
