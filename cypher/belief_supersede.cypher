// name: belief_supersede
// Records that $new_id replaces $old_id: a SUPERSEDES edge with when, why and by whom;
// the old belief is marked superseded and kept.
// $old_id, $new_id, $reason, $by (actor or null), $now (datetime).
// Returns: old_id.
MATCH (old:Belief {id: $old_id}), (new:Belief {id: $new_id})
CREATE (new)-[:SUPERSEDES {at: $now, reason: $reason, by: $by}]->(old)
SET old.status = 'superseded', old.superseded_at = $now, old.updated_at = $now,
    old:Superseded
RETURN old.id AS old_id
