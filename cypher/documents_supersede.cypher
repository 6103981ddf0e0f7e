// name: documents_supersede
// The supersessions of an imported document: for each row a SUPERSEDES edge from the new
// belief to the old one, the old one marked superseded (kept for audit). The old belief is
// locked first (as belief_lock), so the check that nothing supersedes it yet sees any
// concurrent supersession, and the chain never forks; one already superseded is left alone.
// $rows: list of {old_id, new_id, reason}; $by: actor; $now: datetime.
// Returns one row per edge written: old_id, old_text, new_id, new_text, namespaces (of both).
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
SET old.lock_version = coalesce(old.lock_version, 0) + 1
WITH old, new, row
WHERE NOT EXISTS { (:Belief)-[:SUPERSEDES]->(old) }
CREATE (new)-[:SUPERSEDES {at: $now, reason: row.reason, by: $by}]->(old)
SET old.status = 'superseded', old.superseded_at = $now, old.updated_at = $now, old:Superseded
RETURN old.id AS old_id, old.text AS old_text, new.id AS new_id, new.text AS new_text,
       [(old)-[:IN]->(n:Namespace) | n.name] + [(new)-[:IN]->(n:Namespace) | n.name]
         AS namespaces
