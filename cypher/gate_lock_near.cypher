// name: gate_lock_near
// The gate's first step inside a write, in one round trip: lock the namespaces (as
// gate_lock_namespaces), then, for each incoming belief, read the live beliefs among
// row.near (the nearest by the gate's in-process vectors, ranked before the lock: see
// vectors.py; gate.py checks afterwards that the ranking saw exactly this state) and the
// live beliefs sharing an entity or the canonical name (as gate_candidates_structural).
// $names: list<string>, sorted; $rows: list of {i, user (null: shared), embedding, namespaces, about,
// canonical_name, near: list of {id, score (cosine scaled to 0..1 as Neo4j does)}};
// $token: string, new for every write (the gate's copies are stamped with it);
// $structural_limit: int; $live: list<string>.
// Returns one row per (incoming, candidate), or one row with a null id for an incoming
// belief without any: sizes (list of {name, beliefs, replaced: the lock_token this lock
// replaced}), i, held (beliefs in its namespaces), score, and the candidate's fields as
// gate_candidates_exact.
CALL () {
  UNWIND $names AS name
  MERGE (n:Namespace {name: name})
  WITH n, n.lock_token AS replaced
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = $token
  RETURN collect({name: n.name, beliefs: COUNT { (n)<-[:IN]-(:Belief) }, replaced: replaced})
           AS sizes
}
UNWIND $rows AS row
WITH sizes, row,
     reduce(t = 0, s IN sizes | t + CASE WHEN s.name IN row.namespaces THEN s.beliefs ELSE 0 END)
       AS held
OPTIONAL CALL (row, held) {
  WITH row
  UNWIND row.near AS near
  MATCH (b:Belief {id: near.id})
  WHERE b.status IN $live
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
  RETURN b, near.score AS score
  UNION
  // beliefs about a shared entity, walked from whichever side is smaller: the namespace's
  // beliefs, or the entity's (relationship counts are constant-time)
  WITH row, held
  MATCH (e:Entity)
  WHERE e.key IN row.about
  WITH row, held, sum(COUNT { (e)<-[:ABOUT]-() }) AS degree
  WHERE held <= degree
  MATCH (n:Namespace)<-[:IN]-(b:Belief)
  WHERE n.name IN row.namespaces AND b.status IN $live
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
    AND EXISTS { (b)-[:ABOUT]->(x:Entity) WHERE x.key IN row.about }
  WITH DISTINCT row, b
  ORDER BY b.created_at DESC, b.id
  LIMIT $structural_limit
  RETURN b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  UNION
  WITH row, held
  MATCH (e:Entity)
  WHERE e.key IN row.about
  WITH row, held, sum(COUNT { (e)<-[:ABOUT]-() }) AS degree
  WHERE held > degree
  MATCH (e:Entity)<-[:ABOUT]-(b:Belief)
  WHERE e.key IN row.about AND b.status IN $live
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH DISTINCT row, b
  ORDER BY b.created_at DESC, b.id
  LIMIT $structural_limit
  RETURN b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  UNION
  WITH row
  MATCH (b:Belief {canonical_name: row.canonical_name})
  WHERE b.status IN $live
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH row, b
  ORDER BY b.created_at DESC, b.id
  LIMIT $structural_limit
  RETURN b, vector.similarity.cosine(b.embedding, row.embedding) AS score
}
RETURN sizes, row.i AS i, held, score, b.id AS id, b.text AS text, b.kind AS kind,
       b.status AS status, b.trust AS trust, b.importance AS importance,
       b.canonical_name AS canonical_name, b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
