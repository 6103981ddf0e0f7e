"""HTTP that never reaches the app still gets its error as problem+json.

uvicorn refuses a request it cannot parse (``Content-Length: abc``, a broken request line,
an invalid header) in its protocol, before any route or exception handler runs, with a
plain-text 400. :data:`HTTP_PROTOCOL` is uvicorn's own protocol with only that answer
changed: the same 400, as the RFC 9457 problem every other error of the API is.
``beliefgraph serve`` runs with it.
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.problems import PROBLEM_BASE, PROBLEM_JSON


def malformed_request(reason: str) -> bytes:
    """The problem+json body of a 400 for a request that is not valid HTTP."""
    body = {
        "type": PROBLEM_BASE + "malformed-http",
        "title": "Malformed HTTP request",
        "status": 400,
        "detail": f"{reason.rstrip('.')}: the request line or a header (Content-Length, say) "
        "is not valid HTTP/1.1",
    }
    return json.dumps(body).encode("utf-8")


class ProblemHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol; a request it cannot parse is a problem+json 400."""

    def send_400_response(self, msg: str) -> None:  # uvicorn's hook for unparseable input
        body = malformed_request(msg)
        head = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [
            b"content-type: " + PROBLEM_JSON.encode("ascii") + b"\r\n",
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


#: the protocol class ``beliefgraph serve`` gives uvicorn (``uvicorn.run(..., http=...)``)
HTTP_PROTOCOL = ProblemHttpToolsProtocol
