"""``/v1/imports``: bulk import of a conversation log as a background job.

The log is the request body (JSON Lines, OpenAI messages, or a ChatGPT ``conversations.json``),
at most ``BELIEFGRAPH_MAX_BODY_BYTES``; larger logs go through ``beliefgraph import logs``.
The body is spooled to a temporary file and imported by a thread of this process; job state
is kept in memory here (see :class:`beliefgraph.importer.jobs.ImportJobs`), while everything
imported, and the checkpoint to resume from, is in Neo4j.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path
from typing import Annotated, cast

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi import Path as PathParam

from api.deps import CallerDep, StoreDep
from beliefgraph.access import Role
from beliefgraph.errors import Forbidden, NotFound
from beliefgraph.importer.detect import detect_format
from beliefgraph.importer.input import HEAD_BYTES, LogFormat
from beliefgraph.importer.jobs import ImportJobPublic, ImportJobs
from beliefgraph.importer.summary import ImportOptions
from beliefgraph.models import NAMESPACE_PATTERN, USER_ID_PATTERN

router = APIRouter(prefix="/v1", tags=["imports"])

_jobs_lock = threading.Lock()


def get_jobs(request: Request, store: StoreDep) -> ImportJobs:
    """The process's import jobs, created on first use."""
    with _jobs_lock:
        jobs = getattr(request.app.state, "import_jobs", None)
        if jobs is None:
            jobs = request.app.state.import_jobs = ImportJobs(store)
        return cast(ImportJobs, jobs)


JobsDep = Annotated[ImportJobs, Depends(get_jobs)]


@router.post(
    "/imports",
    status_code=status.HTTP_202_ACCEPTED,
    summary="Start importing a conversation log (the request body) as a background job",
)
async def create_import(
    request: Request,
    jobs: JobsDep,
    caller: CallerDep,
    response: Response,
    namespace: Annotated[str, Query(pattern=NAMESPACE_PATTERN)],
    format: LogFormat = LogFormat.auto,
    user: Annotated[str | None, Query(pattern=USER_ID_PATTERN)] = None,
    skip_invalid: bool = False,
    dry_run: Annotated[
        bool,
        Query(
            description="Extract and count, write nothing; the gate is not asked, so every "
            "statement not imported before counts as added."
        ),
    ] = False,
) -> ImportJobPublic:
    """Spool the body, check its format, and start the job; poll `GET /v1/imports/{id}`."""
    if not caller.can_see(namespace):
        raise NotFound(f"no namespace {namespace!r}", field="namespace")
    if caller.role not in (Role.curator, Role.admin):
        # a log holds the user's decisions and rules: authority an agent key may not write
        raise Forbidden(f"{caller.role.value} keys may not import logs; a curator key may")
    spool = tempfile.NamedTemporaryFile(prefix="beliefgraph-import-", delete=False)  # noqa: SIM115  (the job deletes it when done)
    path = Path(spool.name)
    try:
        with spool:
            head = b""
            async for chunk in request.stream():
                spool.write(chunk)
                if len(head) < HEAD_BYTES:
                    head += chunk[: HEAD_BYTES - len(head)]
        if format is LogFormat.auto:
            detect_format(head, "the request body")  # a 422 now rather than a failed job
        options = ImportOptions(
            namespace=namespace,
            format=format,
            user=user,
            skip_invalid=skip_invalid,
            dry_run=dry_run,
        )
        job = jobs.submit(path, options, remove_after=True, caller=caller)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    response.headers["Location"] = f"/v1/imports/{job.id}"
    return job.public()


@router.get("/imports/{job_id}", summary="Status, progress and summary of an import job")
def get_import(
    job_id: Annotated[str, PathParam(max_length=64)], jobs: JobsDep, caller: CallerDep
) -> ImportJobPublic:
    """The job's state (`queued`, `running`, `succeeded`, `failed`), progress and summary.

    A job into a namespace the key may not see is not found (its rejects quote the log).
    """
    job = jobs.get(job_id)
    if job is None or not caller.can_see(job.namespace):
        raise NotFound(f"no import job {job_id!r} in this process")
    return job.public()
