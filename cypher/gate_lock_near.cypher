// name: gate_lock_near
// The gate's first step inside a write, in one round trip: lock the namespaces (as
// gate_lock_namespaces); read the live beliefs among $near, the nearest to the incoming
// beliefs by the gate's in-process vectors (ranked before the lock, see vectors.py; gate.py
// checks afterwards that the ranking saw exactly this state), each once; and, for each
// incoming belief, the live beliefs sharing an entity or the canonical name (as
// gate_candidates_structural).
// $names: list<string>, sorted; $token: string, new for every write (the gate's copies are
// stamped with it); $near: list<string> (belief ids); $rows: list of {i, user (null:
// shared), embedding, namespaces, about, canonical_name}; $structural_limit: int;
// $live: list<string>.
// Returns, in every row, sizes (list of {name, beliefs, replaced: the lock_token this lock
// replaced}); then one row per near belief (i null, score null) and one per (incoming,
// structural candidate) (i, score: cosine scaled to 0..1 as Neo4j does), with the
// candidate's fields as gate_candidates_exact; a single row with a null id if none.
CALL () {
  UNWIND $names AS name
  MERGE (n:Namespace {name: name})
  WITH n, n.lock_token AS replaced
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = $token
  // only beliefs are IN a namespace: the degree is the count, in constant time
  RETURN collect({name: n.name, beliefs: COUNT { (n)<-[:IN]-() }, replaced: replaced}) AS sizes
}
OPTIONAL CALL (sizes) {
  UNWIND $near AS id
  MATCH (b:Belief {id: id})
  WHERE b.status IN $live
  RETURN null AS i, b, null AS score
  UNION
  UNWIND $rows AS row
  WITH row,
       reduce(t = 0, s IN sizes | t + CASE WHEN s.name IN row.namespaces THEN s.beliefs ELSE 0 END)
         AS held
  CALL (row, held) {
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
  RETURN row.i AS i, b, score
}
RETURN sizes, i, score, b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.trust AS trust, b.importance AS importance, b.canonical_name AS canonical_name,
       b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
