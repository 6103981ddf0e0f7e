// name: gate_supersede
// The gate's contradictions: each new belief supersedes the old one it contradicts
// (a SUPERSEDES edge with when, why and by whom); the old one is marked superseded, kept,
// and its importance decays.
// $rows: list of {old_id, new_id, reason, by (actor or null)}; $decay: float; $now: datetime.
// Returns: old_id.
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
CREATE (new)-[:SUPERSEDES {at: $now, reason: row.reason, by: row.by}]->(old)
SET old.status = 'superseded', old.superseded_at = $now, old.updated_at = $now,
    old.importance = old.importance * $decay, old:Superseded
RETURN old.id AS old_id
