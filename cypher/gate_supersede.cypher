// name: gate_supersede
// The gate's contradictions: each new belief supersedes the old one it contradicts
// (a SUPERSEDES edge with when, why and by whom); the old one is marked superseded, kept,
// and its importance decays. A new belief of the old one's author is pinned when the old one
// was: what someone asked to keep in view stays in view when they correct it.
// $rows: list of {old_id, new_id, reason, by (actor or null)}; $decay: float; $now: datetime.
// Returns nothing.
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
CREATE (new)-[:SUPERSEDES {at: $now, reason: row.reason, by: row.by}]->(old)
SET old.status = 'superseded', old.superseded_at = $now, old.updated_at = $now,
    old.importance = old.importance * $decay, old:Superseded,
    new.pinned = new.pinned OR coalesce(old.pinned AND new.author = old.author, false)
