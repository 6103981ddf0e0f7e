"""Neo4j Browser, as a user sees it: headless Chromium loads the favourites and the GraSS
style of ``cypher/browser/`` the way the README says (drag the files onto the Browser), runs
the supersession-chain favourite and screenshots the chain. And the API's docs pages
(``/docs``, ``/redoc``), rendered with every other host refused.

The screenshot goes to the test's temporary directory; with ``BELIEFGRAPH_SCREENSHOT_DIR``
set (``docs`` to refresh the README's picture) it is also written there.
Needs Debian's ``chromium`` (``.ci/run`` installs it) and the ``playwright`` package.
"""

from __future__ import annotations

import os
import shutil
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from beliefgraph.importer.pipeline import ImportOptions, import_logs
from beliefgraph.models import BeliefCreate
from beliefgraph.store import Store

ROOT = Path(__file__).resolve().parents[2]
BROWSER_DIR = ROOT / "cypher" / "browser"
FAVOURITES = sorted(BROWSER_DIR.glob("*.cypher"))
LOGS = ROOT / "tests" / "data" / "logs"
CHROMIUM = "/usr/bin/chromium"
BROWSER_URL = "http://127.0.0.1:7474/browser/"


def test_every_favourite_runs_on_the_real_server(store: Store, driver: Driver, ns: str) -> None:
    [belief] = store.create(
        [
            BeliefCreate(
                text="The office Wi-Fi password is tulip-42.",
                about=["office wifi"],
                namespaces=[ns],
            )
        ]
    )
    params = {"id": belief.id, "entity": "office_wifi"}
    assert {f.stem for f in FAVOURITES} == {
        "chain",
        "governs",
        "provenance",
        "recent_decisions",
        "contested",
    }
    for favourite in FAVOURITES:
        text = favourite.read_text()
        assert text.startswith("// "), (
            f"{favourite.name}: the first line is its title in the Browser"
        )
        records, _, _ = driver.execute_query(text, params)
        assert records, f"{favourite.name} returned nothing"


@pytest.fixture
def chain(store: Store, ns: str) -> list[str]:
    """A three-long Wi-Fi chain from an imported conversation log, in plain text: the gate
    reads each correction as replacing what it corrects."""
    import_logs(store, LOGS / "office-wifi.jsonl", ImportOptions(namespace=ns))
    ids = [b.id for b in store.chain(store.list_beliefs(namespace=ns).items[0].id).beliefs]
    assert len(ids) == 3
    return ids


@pytest.fixture
def page(neo4j_uri: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "install chromium: apt-get install -y chromium"
    bolt = urllib.parse.urlsplit(neo4j_uri)
    url = f"{BROWSER_URL}?dbms=neo4j://{bolt.hostname}:{bolt.port}&preselectAuthMethod=NO_AUTH"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 900})
            tab.goto(url)
            tab.locator(".monaco-editor").first.wait_for(timeout=30_000)
            tab.get_by_text("Connected to Neo4j").first.wait_for(timeout=30_000)
            yield tab
        finally:
            browser.close()


def drop_file(page: Any, path: Path) -> None:
    """Drag a file onto the Browser, as a user drags it from a file manager."""
    data = page.evaluate_handle(
        """([name, text]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([text], name, {type: ''}));
            return dt;
        }""",
        [path.name, path.read_text()],
    )
    page.dispatch_event(".filedrop", "dragenter", {"dataTransfer": data})
    overlay = page.evaluate_handle(
        "() => { const d = document.querySelector('.filedrop'); return d.lastElementChild; }"
    )
    overlay.dispatch_event("dragover", {"dataTransfer": data})
    overlay.dispatch_event("drop", {"dataTransfer": data})


def drop_and_save(page: Any, path: Path, attempts: int = 3) -> None:
    """Drop a Cypher file and save it to the favourites, dropping it again when the Browser's
    "Save to favorites" offer does not come or goes before it is clicked, as a user drags a
    file again when nothing happened (on a loaded machine a CI run lost the offer both ways).
    Returns once the offer is gone: a file dropped while the last one's banner is still going
    away is ignored (one run in two lost the fifth favourite so)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    save = page.get_by_role("button", name="Save to favorites")
    for attempt in range(1, attempts + 1):
        drop_file(page, path)
        try:
            save.click(timeout=10_000)
        except PlaywrightTimeout:
            if attempt == attempts:
                raise
        else:
            save.wait_for(state="detached", timeout=10_000)
            return


def run(page: Any, command: str) -> None:
    page.locator(".monaco-editor").first.click()
    page.keyboard.insert_text(command)
    page.keyboard.press("Control+Enter")


def test_the_favourites_and_style_load_and_the_chain_reads_at_a_glance(
    page: Any, chain: list[str], tmp_path: Path
) -> None:
    for favourite in FAVOURITES:
        drop_and_save(page, favourite)
    # each favourite is listed under Local scripts, titled by its first comment line
    page.get_by_test_id("navigationFavorites").click()
    for favourite in FAVOURITES:
        title = favourite.read_text().splitlines()[0].removeprefix("// ")
        page.get_by_text(title).first.wait_for(timeout=10_000)
    page.get_by_test_id("navigationFavorites").click()

    drop_file(page, BROWSER_DIR / "style.grass")
    # the Browser applies a dropped style at once and shows it in a :style frame
    page.get_by_text("node.Superseded").first.wait_for(timeout=10_000)

    run(page, f":param id => '{chain[-1]}'")
    time.sleep(1.5)
    # run the favourite from the Favorites drawer, as a user would
    page.get_by_test_id("navigationFavorites").click()
    page.get_by_text("Supersession chain of a belief, oldest to head").first.click()
    page.get_by_test_id("navigationFavorites").click()  # close the drawer
    page.get_by_test_id("editor-Run").first.click()
    page.locator("svg g.node").nth(2).wait_for(timeout=30_000)
    time.sleep(3)  # let the force layout settle before the picture

    fills = page.evaluate(
        "() => Array.from(document.querySelectorAll('svg g.node circle.b-outline'))"
        ".map(c => c.getAttribute('fill'))"
    )
    assert len(fills) == 3
    # two superseded beliefs in grey, the head (a correction: authority) in purple
    assert sorted(f.upper() for f in fills) == ["#7B4FB8", "#DDE1E6", "#DDE1E6"]
    # the two corrections' SUPERSEDES, beside the log's own order (FOLLOWS)
    kinds = page.locator("svg g.relationship text").all_text_contents()
    assert sorted(kinds) == ["FOLLOWS", "FOLLOWS", "SUPERSEDES", "SUPERSEDES"]
    captions = " ".join(page.locator("svg g.node text").all_text_contents())
    assert "tulip-42" in captions  # captions read: the belief's own words

    shot = tmp_path / "browser-chain.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000
    if target := os.environ.get("BELIEFGRAPH_SCREENSHOT_DIR"):
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / shot.name)


def test_the_api_docs_render_without_the_internet(client: TestClient) -> None:
    """Swagger UI and ReDoc render the whole API from what the API serves (api/docs.py):
    every request to another host is refused, as on a machine without the internet."""
    from playwright.sync_api import Route, sync_playwright

    assert Path(CHROMIUM).exists(), "install chromium: apt-get install -y chromium"
    site = "http://beliefgraph.test"
    refused: list[str] = []

    def serve(route: Route) -> None:
        url = route.request.url
        if not url.startswith(site + "/"):
            refused.append(url)
            route.abort()
            return
        answer = client.get(url.removeprefix(site))
        route.fulfill(status=answer.status_code, headers=dict(answer.headers), body=answer.content)

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            tab = browser.new_page()
            tab.route("**/*", serve)
            tab.goto(f"{site}/docs")
            tab.get_by_text("/v1/query", exact=True).first.wait_for(timeout=30_000)
            tab.goto(f"{site}/redoc")
            tab.get_by_text("/v1/query").first.wait_for(timeout=30_000, state="attached")
        finally:
            browser.close()
    assert refused == []  # (ReDoc's logo from Redocly: the pages' Content-Security-Policy)
