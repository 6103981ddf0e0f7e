// name: gate_lock_scan
// The gate's first step inside a write, in one round trip: lock the namespaces (as
// gate_lock_namespaces), then, for each incoming belief, find the live beliefs sharing an
// entity or the canonical name (as gate_candidates_structural) and, when its namespaces hold
// at most $limit beliefs, its $k nearest by an exact scan (as gate_candidates_exact).
// Larger namespaces are left to gate_candidates_index.
// $names: list<string>, sorted; $rows: list of {i, embedding, namespaces, about,
// canonical_name}; $k, $limit, $structural_limit: int; $live: list<string>.
// Returns one row per (incoming, candidate), or one row with a null id for an incoming
// belief without any: sizes (list of {name, beliefs}), i, held (beliefs in its namespaces),
// score, and the candidate's fields as gate_candidates_exact.
CALL {
  UNWIND $names AS name
  MERGE (n:Namespace {name: name})
  SET n.lock_version = coalesce(n.lock_version, 0) + 1
  WITH n
  RETURN collect({name: n.name, beliefs: COUNT { (n)<-[:IN]-(:Belief) }}) AS sizes
}
UNWIND $rows AS row
WITH sizes, row,
     reduce(t = 0, s IN sizes | t + CASE WHEN s.name IN row.namespaces THEN s.beliefs ELSE 0 END)
       AS held
OPTIONAL CALL (row, held) {
  WITH row, held
  WHERE 0 < held <= $limit
  MATCH (n:Namespace)<-[:IN]-(b:Belief)
  WHERE n.name IN row.namespaces AND b.status IN $live
  WITH DISTINCT row, b
  WITH b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  ORDER BY score DESC, b.id
  LIMIT $k
  RETURN b, score
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
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH DISTINCT row, b
  ORDER BY b.created_at DESC, b.id
  LIMIT $structural_limit
  RETURN b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  UNION
  WITH row
  MATCH (b:Belief {canonical_name: row.canonical_name})
  WHERE b.status IN $live
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH row, b
  ORDER BY b.created_at DESC, b.id
  LIMIT $structural_limit
  RETURN b, vector.similarity.cosine(b.embedding, row.embedding) AS score
}
RETURN sizes, row.i AS i, held, score, b.id AS id, b.text AS text, b.kind AS kind,
       b.status AS status, b.trust AS trust, b.importance AS importance,
       b.canonical_name AS canonical_name,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
