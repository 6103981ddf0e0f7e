"""The application's lifespan, against the real Neo4j and model."""

from __future__ import annotations

import gc
import re

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


def test_the_docs_pages_load_everything_from_the_api_itself(client: TestClient) -> None:
    for page, script in (("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc.standalone.js")):
        html = client.get(page)  # (that they need no key: test_auth.py)
        assert html.status_code == 200, page
        assert html.headers["content-security-policy"].startswith("default-src 'self'")
        # every script, style and image the page loads is the API's (a machine without the
        # internet shows the docs too); the fonts ReDoc would take from Google are left out
        urls = re.findall(r"""(?:src|href)=["']([^"']+)""", html.text)
        assert f"/docs-static/{script}" in urls, urls
        assert all(u.startswith("/") for u in urls), urls
        for url in urls:
            served = client.get(url)
            assert served.status_code == 200, url
            assert len(served.content) > 0, url


def test_the_docs_files_answer_as_every_route_does(client: TestClient) -> None:
    missing = client.get("/docs-static/no-such-file.js")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    posted = client.post("/docs")
    assert posted.status_code == 405
    assert set(posted.headers["allow"].split(", ")) == {"GET", "HEAD"}  # (in no fixed order)


def test_the_docs_pages_load_under_a_proxys_prefix(settings: Settings) -> None:
    with TestClient(create_app(settings), root_path="/api/") as behind:
        html = behind.get("/docs").text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)""", html)
    assert "/api/docs-static/swagger-ui-bundle.js" in urls, urls
    assert "'/api/openapi.json'" in html


def test_every_operation_declares_its_problems(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "Problem" in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        if path in ("/healthz", "/readyz"):
            continue
        for method, operation in operations.items():
            for code in ("401", "422", "503"):
                content = operation["responses"][code]["content"]
                assert list(content) == ["application/problem+json"], (method, path, code)
    # and what is declared is what comes: a 422 is problem+json of that shape
    r = client.post("/v1/beliefs", json={"namespaces": ["user:x"]})
    assert r.headers["content-type"] == "application/problem+json"
    assert set(r.json()) >= set(schema["components"]["schemas"]["Problem"]["required"])


def test_the_rules_the_server_enforces_are_in_the_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    assert models["SupersedeRequest"]["oneOf"] == [{"required": ["by"]}, {"required": ["by_id"]}]
    assert [alt["required"] for alt in models["Governs"]["anyOf"]] == [["any_terms"], ["all_terms"]]
    listing = schema["paths"]["/v1/beliefs"]["get"]["parameters"]
    [cursor] = [p for p in listing if p["name"] == "cursor"]
    assert "next_cursor" in cursor["description"]
    # and the server does what the schema says
    r = client.post("/v1/beliefs", json={"text": "x", "namespaces": ["user:x"], "governs": {}})
    assert r.status_code == 422
