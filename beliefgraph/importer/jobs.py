"""Imports run in the background for ``POST /v1/imports`` and followed by id."""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from beliefgraph.access import Caller
from beliefgraph.errors import BeliefGraphError, MalformedRecord
from beliefgraph.importer.input import Reject
from beliefgraph.importer.pipeline import import_logs
from beliefgraph.importer.summary import ImportOptions, ImportSummary
from beliefgraph.store import Store

log = logging.getLogger(__name__)


# -- background jobs -----------------------------------------------------------------------


class JobState(StrEnum):
    """Where an import job is."""

    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"


@dataclass
class ImportJob:
    """An import running in a background thread, and what it has done so far."""

    id: str
    namespace: str
    format: str
    state: JobState = JobState.queued
    summary: ImportSummary | None = None
    error: dict[str, Any] | None = None
    rejects: list[dict[str, Any]] = field(default_factory=list)
    bytes_read: int = 0
    total_bytes: int | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    finished_at: datetime | None = None

    def public(self) -> ImportJobPublic:
        """The job as clients see it (``GET /v1/imports/{id}``)."""
        fraction = None
        if self.total_bytes:
            fraction = round(min(self.bytes_read / self.total_bytes, 1.0), 4)
        return ImportJobPublic(
            id=self.id,
            state=self.state,
            namespace=self.namespace,
            format=self.format,
            summary=self.summary.as_dict() if self.summary else None,
            progress=ImportProgress(
                bytes_read=self.bytes_read, total_bytes=self.total_bytes, fraction=fraction
            ),
            error=self.error,
            rejects=list(self.rejects),
            created_at=self.created_at,
            finished_at=self.finished_at,
        )


class ImportProgress(BaseModel):
    """How far a job has got."""

    bytes_read: int
    total_bytes: int | None
    fraction: float | None = Field(description="Share of the log read, 0..1, when known.")


class ImportJobPublic(BaseModel):
    """An import job as clients see it; ``summary`` grows while it runs."""

    id: str
    state: JobState
    namespace: str
    format: str
    summary: dict[str, Any] | None
    progress: ImportProgress
    error: dict[str, Any] | None = Field(
        description="Why the job failed: `type`, `detail`, and `line`/`reason` for a broken "
        "record (every record before it is committed; resubmit the fixed log to continue)."
    )
    rejects: list[dict[str, Any]] = Field(
        description="Skipped records (`line`, `reason`) when `skip_invalid` is on; the first 100."
    )
    created_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        """Whether the job has stopped, one way or the other."""
        return self.state in (JobState.succeeded, JobState.failed)


class _JobProgress:
    def __init__(self, job: ImportJob) -> None:
        self.job = job

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        self.job.summary = summary
        self.job.bytes_read = bytes_read
        self.job.total_bytes = total_bytes

    def close(self, summary: ImportSummary) -> None:
        self.job.summary = summary


class ImportJobs:
    """Import jobs of this process, each in its own thread.

    Job state lives in memory, in the process that runs the job: it is a view of progress,
    not a record. The record is in Neo4j — the beliefs, their provenance and the source's
    checkpoint — so a job lost with its process is finished by submitting the same log
    again, which resumes at the checkpoint. With several API replicas, ask the replica that
    took the job (or read the ``Source`` node's checkpoint).

    Args:
        store: the process's store.
        max_rejects: rejects kept per job for ``skip_invalid`` (the count is always exact).
        max_jobs: finished jobs kept before the oldest are forgotten.
    """

    def __init__(self, store: Store, *, max_rejects: int = 100, max_jobs: int = 1000) -> None:
        self.store = store
        self.max_rejects = max_rejects
        self.max_jobs = max_jobs
        self._jobs: dict[str, ImportJob] = {}
        self._lock = threading.Lock()
        # one import at a time: they all compete for the same two cores and the same model
        self._run_lock = threading.Lock()

    def submit(
        self,
        path: Path,
        options: ImportOptions,
        *,
        remove_after: bool = False,
        caller: Caller | None = None,
    ) -> ImportJob:
        """Start importing the log at ``path`` in a background thread; return the job.

        With ``remove_after`` the file is deleted when the job ends (an uploaded body).
        """
        job = ImportJob(id=uuid.uuid4().hex, namespace=options.namespace, format=options.format)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
        thread = threading.Thread(
            target=self._run,
            args=(job, path, options, remove_after, caller),
            daemon=True,
            name=f"import-{job.id[:8]}",
        )
        thread.start()
        return job

    def get(self, job_id: str) -> ImportJob | None:
        """The job with that id, or ``None``."""
        with self._lock:
            return self._jobs.get(job_id)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished_at is not None]
        for job in sorted(finished, key=lambda j: j.created_at)[
            : max(0, len(self._jobs) - self.max_jobs)
        ]:
            del self._jobs[job.id]

    def _run(
        self,
        job: ImportJob,
        path: Path,
        options: ImportOptions,
        remove_after: bool,
        caller: Caller | None,
    ) -> None:
        def keep_reject(source: str, reject: Reject) -> None:
            if len(job.rejects) < self.max_rejects:
                job.rejects.append({"line": reject.line, "reason": reject.reason})

        try:
            with self._run_lock:
                job.state = JobState.running
                job.summary = import_logs(
                    self.store,
                    path,
                    options,
                    name=f"upload-{job.id[:8]}",
                    progress=_JobProgress(job),
                    on_reject=keep_reject,
                    caller=caller,
                )
            job.state = JobState.succeeded
        except BeliefGraphError as e:
            job.error = {"type": e.slug, "detail": e.detail}
            if isinstance(e, MalformedRecord):
                job.error.update(line=e.line, reason=e.reason)
            job.state = JobState.failed
        except Exception as e:  # a job thread must record any failure, never die silently
            log.exception("import job %s failed", job.id)
            job.error = {"type": "internal", "detail": f"{type(e).__name__}: {e}"}
            job.state = JobState.failed
        finally:
            if job.summary is not None and job.summary.format:
                job.format = job.summary.format  # what auto found, failed job or not
            job.finished_at = datetime.now(UTC)
            if remove_after:
                path.unlink(missing_ok=True)
