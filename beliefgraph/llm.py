"""One OpenAI-compatible chat endpoint, asked for a JSON object.

The optional LLM extractor (:mod:`beliefgraph.importer.extract`) and the optional LLM
classifier of the gate (:mod:`beliefgraph.gate.classifier`) both ask through
:class:`ChatEndpoint`; neither is ever needed, and each falls back to its rules when the
endpoint fails (:class:`~beliefgraph.errors.LLMUnavailable`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from beliefgraph.errors import LLMUnavailable


@dataclass(frozen=True)
class ChatEndpoint:
    """An OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1``.
        model: the model name the endpoint expects.
        timeout: seconds before a request is abandoned.
        api_key: sent as ``Authorization: Bearer`` when given.
    """

    base_url: str
    model: str
    timeout: float
    api_key: str | None = None

    @property
    def url(self) -> str:
        """Where the requests go."""
        return self.base_url.rstrip("/") + "/chat/completions"

    def ask_json(self, system: str, user: str) -> dict[str, Any]:
        """The JSON object the model answers ``user`` with, under the ``system`` prompt (at
        temperature 0, in JSON mode).

        Raises:
            LLMUnavailable: the endpoint failed or timed out, or its answer is not a chat
                completion whose content is a JSON object.
        """
        body = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(  # noqa: S310  (the URL is the operator's own setting)
            self.url, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310  (as above)
                reply = json.loads(response.read())
            answer = json.loads(reply["choices"][0]["message"]["content"])
        except (OSError, urllib.error.URLError, TimeoutError) as e:
            raise LLMUnavailable(f"{self.url}: {e}") from e
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise LLMUnavailable(f"{self.url} answered something unreadable: {e!r}") from e
        if not isinstance(answer, dict):
            raise LLMUnavailable(f"{self.url} answered {answer!r:.200}, not a JSON object")
        return answer
