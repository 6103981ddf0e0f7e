"""The application's lifespan, against the real Neo4j and model."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from api.app import create_app
from beliefgraph.config import Settings
from beliefgraph.store import Store


def test_what_start_up_loaded_is_frozen_while_the_app_serves(store: Store) -> None:
    with TestClient(create_app(Settings(auth="off"))) as client:
        # the model, the driver and the app are out of the collector's full passes
        assert gc.get_freeze_count() > 10_000
        assert client.get("/healthz").status_code == 200
    assert gc.get_freeze_count() == 0
