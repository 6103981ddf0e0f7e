// name: gate_archive
// The gate's subsumptions: the old belief says nothing the new one does not, so it is
// archived (kept, no longer live) and points at the belief that subsumed it. A new belief
// of the old one's author is pinned when the old one was (as in gate_supersede).
// $rows: list of {old_id, new_id}; $now: datetime.
// Returns: old_id.
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
SET old.status = 'archived', old.archived_at = $now, old.subsumed_by = row.new_id,
    old.updated_at = $now, old:Archived,
    new.pinned = new.pinned OR coalesce(old.pinned AND new.author = old.author, false)
RETURN old.id AS old_id
