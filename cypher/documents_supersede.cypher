// name: documents_supersede
// The supersessions of an imported document: for each row a SUPERSEDES edge from the new
// belief to the old one, the old one marked superseded (kept for audit). A belief that is
// already superseded is left alone, so the chain never forks.
// $rows: list of {old_id, new_id, reason}; $by: actor; $now: datetime.
// Returns: linked (how many edges were written).
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
WHERE NOT EXISTS { (:Belief)-[:SUPERSEDES]->(old) }
CREATE (new)-[:SUPERSEDES {at: $now, reason: row.reason, by: $by}]->(old)
SET old.status = 'superseded', old.superseded_at = $now, old.updated_at = $now
RETURN count(*) AS linked
