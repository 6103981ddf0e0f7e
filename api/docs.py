"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc``, with their scripts
served by the API itself (the copies the ``fastapi-offline`` package ships) instead of a CDN:
FastAPI's own pages load them from cdn.jsdelivr.net, and are blank on a machine without the
internet.

Like FastAPI's own, the pages and their files need no API key: they are plain routes and a
mount, which the app's dependencies (api/auth.py) do not reach. What they show, the OpenAPI
document, is public too.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse

#: where the pages' scripts, styles and icon are served
STATIC_URL = "/docs-static"
#: the pages load nothing from elsewhere (ReDoc's script would show Redocly's logo from its
#: CDN); inline code is the pages' own start-up, blob: workers ReDoc's search
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:"
)
_STATIC_DIR = Path(fastapi_offline.__file__).parent / "static"


def install(app: FastAPI) -> None:
    """Serve ``/docs`` and ``/redoc`` on ``app``, built with ``docs_url=None, redoc_url=None``."""
    if app.docs_url is not None or app.redoc_url is not None or not app.openapi_url:
        # FastAPI's own pages, registered first, would win; without the document, nothing shows
        raise ValueError("build the app with docs_url=None, redoc_url=None and an openapi_url")
    app.mount(STATIC_URL, StaticFiles(directory=_STATIC_DIR), name="docs-static")

    def root(request: Request) -> str:
        """The prefix a proxy serves the API under (uvicorn's ``--root-path``), if any."""
        return str(request.scope.get("root_path", "")).rstrip("/")

    def openapi_url(request: Request) -> str:
        return f"{root(request)}{app.openapi_url}"

    def static(request: Request, name: str) -> str:
        return f"{root(request)}{STATIC_URL}/{name}"

    async def swagger_ui(request: Request) -> HTMLResponse:
        return _own_only(
            get_swagger_ui_html(
                openapi_url=openapi_url(request),
                title=f"{app.title} - Swagger UI",
                swagger_js_url=static(request, "swagger-ui-bundle.js"),
                swagger_css_url=static(request, "swagger-ui.css"),
                swagger_favicon_url=static(request, "favicon.png"),
            )
        )

    async def redoc(request: Request) -> HTMLResponse:
        return _own_only(
            get_redoc_html(
                openapi_url=openapi_url(request),
                title=f"{app.title} - ReDoc",
                redoc_js_url=static(request, "redoc.standalone.js"),
                redoc_favicon_url=static(request, "favicon.png"),
                with_google_fonts=False,
            )
        )

    app.add_route("/docs", swagger_ui, include_in_schema=False)
    app.add_route("/redoc", redoc, include_in_schema=False)


def _own_only(page: HTMLResponse) -> HTMLResponse:
    """``page``, told to load nothing but from the API (:data:`CONTENT_SECURITY_POLICY`)."""
    page.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return page
