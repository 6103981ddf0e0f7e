"""The query runner: every statement the service sends to Neo4j goes through :class:`Db`.

:class:`Db` takes an open driver (it builds none: :func:`connect` does, once per process)
and runs only the named queries of ``cypher/``: reads in one auto-commit transaction, writes
in one managed transaction each, retried where the driver does not. On any error a write
leaves nothing behind.

>>> db = Db(connect(settings.neo4j), database="neo4j")            # doctest: +SKIP
>>> db.run_read("belief_get_many", ids=["b1"], visible=None)     # doctest: +SKIP
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from neo4j import (
    READ_ACCESS,
    Driver,
    GraphDatabase,
    ManagedTransaction,
    NotificationDisabledClassification,
)
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    Neo4jError,
    ResultFailedError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from beliefgraph.config import Neo4jSettings, Settings
from beliefgraph.cypher import Queries, load_queries
from beliefgraph.errors import InvalidInput, StoreUnavailable, WriteOutcomeUnknown

#: how many times :meth:`Db.write` tries a write the driver gave up on as transient
WRITE_ATTEMPTS = 5

log = logging.getLogger(__name__)

_REFUSED = "Neo4j refused the credentials (NEO4J_USER, NEO4J_PASSWORD): "


#: what a client is told when Neo4j cannot be reached: that it cannot, not where it is
UNREACHABLE = "Neo4j is unreachable; try again shortly"


class Unreachable(StoreUnavailable):
    """Neo4j could not be reached (not: it refused the work, or was busy)."""


def unreachable(error: Exception) -> Unreachable:
    """What a client is told when Neo4j cannot be reached (the driver's message names the
    internal address; it goes to the log)."""
    log.warning("Neo4j is unreachable: %s", error)
    return Unreachable(UNREACHABLE)


def connect(neo: Neo4jSettings) -> Driver:
    """A driver for ``neo``. Neo4j's UNRECOGNIZED notifications are off: on a new store
    every query naming a property or relationship type not written yet ("the property
    `embedding_f32` does not exist") would log a warning, on every start.

    Raises:
        InvalidInput: the URI is not one the driver can use (``field`` ``NEO4J_URI``).
    """
    secret = neo.password.get_secret_value()
    try:
        return GraphDatabase.driver(
            neo.uri,
            auth=(neo.user, secret) if secret else None,
            notifications_disabled_classifications=[
                NotificationDisabledClassification.UNRECOGNIZED
            ],
            # a Neo4j that accepts connections and never answers must cost seconds, not
            # the driver's minute per attempt
            connection_timeout=neo.connect_timeout,
            connection_acquisition_timeout=neo.acquire_timeout,
            max_transaction_retry_time=neo.retry_seconds,
        )
    except ConfigurationError as e:  # a scheme the driver does not know, say
        raise InvalidInput(str(e), field="NEO4J_URI") from e


class Db:
    """Runs the named Cypher queries against one Neo4j database.

    Args:
        driver: an open Neo4j driver (one per process; ``Db`` does not close it).
        database: the Neo4j database name.
        settings: the timeouts a read that failed may still be tried within.
        queries: the named Cypher queries (default: ``cypher/``).
    """

    #: A page of a listing restricted to namespaces (beliefs, or a key's audit) first reads the
    #: store (the log) in its order, at most this many per row the page returns, and reads the
    #: namespaces' own (their chains) when those did not fill it: what is listed fills a page from
    #: the first read when denser there than one in ten.
    scanned_per_row = 10

    def __init__(
        self,
        driver: Driver,
        *,
        database: str,
        settings: Settings | None = None,
        queries: Queries | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.settings = settings or Settings()
        self.queries = queries or load_queries()

    def run_read(self, name: str, **params: Any) -> list[Any]:
        """Run a named read query in one auto-commit transaction; return its records.

        Auto-commit, because its records come back in one round trip, where a managed
        transaction adds a second for the COMMIT (every request waits for it). A read that
        fails at once on a dropped connection (a restarted server) or with an error the server
        calls transient is tried once more; one that waited out the connection timeout is not
        (a silent server would make it wait again).
        """
        text = self.queries[name].text
        started = time.monotonic()
        try:
            return self._auto_commit_read(text, params)
        except TransientError:
            pass
        except (ServiceUnavailable, SessionExpired) as e:
            if time.monotonic() - started >= self.settings.neo4j_connect_timeout:
                raise unreachable(e) from e
        except AuthError as e:
            raise StoreUnavailable(_REFUSED + str(e)) from e
        try:
            return self._auto_commit_read(text, params)
        except (ServiceUnavailable, SessionExpired) as e:
            raise unreachable(e) from e

    def read_rows(self, name: str, **params: Any) -> list[Any]:
        """Run a named read query that collects its result into one record's ``rows``
        (as :meth:`run_read`); return that list."""
        rows: list[Any] = self.run_read(name, **params)[0]["rows"]
        return rows

    def _auto_commit_read(self, text: str, params: dict[str, Any]) -> list[Any]:
        with self.driver.session(database=self.database, default_access_mode=READ_ACCESS) as s:
            return list(s.run(text, params))

    def write(self, work: Callable[[ManagedTransaction], Any]) -> Any:
        """Run ``work`` in one write transaction, retried on transient errors.

        The driver retries a transient error (a deadlock between concurrent writers, a lock
        timeout) itself, except when the server reports it while records stream: rolling
        back then raises a ``ResultFailedError`` caused by it, which the driver does not
        retry (neo4j 6.4: seen with eight writers creating one namespace at once). Those are
        tried again here, up to :data:`WRITE_ATTEMPTS` times, after a short random pause.
        """
        reached_commit = False  # the work ran to its end: only the commit was left

        def tracked_work(tx: ManagedTransaction) -> Any:
            nonlocal reached_commit
            reached_commit = False
            done = work(tx)
            reached_commit = True
            return done

        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                with self.driver.session(database=self.database) as session:
                    return session.execute_write(tracked_work)
            except ResultFailedError as e:
                transient = isinstance(e.__cause__, Neo4jError) and e.__cause__.is_retryable()
                if not transient or attempt == WRITE_ATTEMPTS:
                    raise
            except (ServiceUnavailable, SessionExpired) as e:
                if reached_commit:  # lost while committing (IncompleteCommit, or the connection)
                    log.warning("Neo4j went away during a commit: %s", e)
                    raise WriteOutcomeUnknown(
                        "Neo4j went away while the write committed: it may or may not be "
                        "stored. Send the same write again, with the same ids: if it was "
                        "stored, the answer is 200 with it"
                    ) from e
                raise unreachable(e) from e
            except TransientError as e:  # still failing when the driver's retries ran out
                log.warning("a write failed transiently after retries: %s", e)
                raise StoreUnavailable("Neo4j is busy; try again shortly") from e
            except AuthError as e:
                raise StoreUnavailable(_REFUSED + str(e)) from e
            # S311: jitter, so that writers that collided do not collide again in step
            time.sleep(random.uniform(0.01, 0.05) * attempt)  # noqa: S311
        raise AssertionError("unreachable: the last attempt returns or raises")

    def tx_run(self, tx: ManagedTransaction, name: str, **params: Any) -> list[Any]:
        """Run a named query inside ``tx``; return its records."""
        return list(tx.run(self.queries[name].text, params))

    def tx_rows(self, tx: ManagedTransaction, name: str, **params: Any) -> list[Any]:
        """Run a named query inside ``tx`` that collects its result into one record's
        ``rows``; return that list.

        A query that may find many rows collects them: the driver spends Python time on each
        record it receives, where the Rust codec unpacks a list inside one record at once
        (bench/results/design-notes.md).
        Not for a result that can be large (a namespace's copy): the server builds the list
        in its heap before it sends any of it.
        """
        rows: list[Any] = self.tx_run(tx, name, **params)[0]["rows"]
        return rows
