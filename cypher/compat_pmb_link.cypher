// name: compat_pmb_link
// Records what replaces a compat belief and writes the SUPERSEDES edges that can be written
// now: from its replacement when that is stored, and to every belief of the same user that
// named this one as its replacement before it was stored. A superseded belief is marked so
// and kept; one that is already superseded is left alone (chains never fork).
// $id: the belief just written; $superseded_by: id of its replacement, or null;
// $by: actor; $now: datetime.
// Returns: id.
MATCH (b:Belief {id: $id})
SET b.pmb_superseded_by = $superseded_by
WITH b
CALL (b) {
  MATCH (n:Belief {id: $superseded_by})
  WHERE n.user = b.user AND NOT EXISTS { (:Belief)-[:SUPERSEDES]->(b) }
  CREATE (n)-[:SUPERSEDES {at: $now, reason: 'superseded_by (compat)', by: $by}]->(b)
  SET b.status = 'superseded', b.superseded_at = $now, b.updated_at = $now
}
CALL (b) {
  MATCH (o:Belief {user: b.user})
  WHERE o.pmb_superseded_by = b.id AND NOT EXISTS { (:Belief)-[:SUPERSEDES]->(o) }
  CREATE (b)-[:SUPERSEDES {at: $now, reason: 'superseded_by (compat)', by: $by}]->(o)
  SET o.status = 'superseded', o.superseded_at = $now, o.updated_at = $now
}
RETURN b.id AS id
