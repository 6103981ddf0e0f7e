// name: gate_candidates_index
// The gate's candidates for each incoming belief when its namespaces are too large to scan:
// the vector index is asked for $fetch nearest beliefs of the whole store, which are then
// filtered to the live beliefs of the belief's namespaces (5.26 has no in-index filter, so
// it over-fetches); plus, as in gate_candidates_exact, every live belief sharing an entity
// or the canonical name (at most $structural_limit).
// $rows: list of {i, embedding, namespaces, about, canonical_name} (see gate_candidates_exact)
// $k: int; $fetch: int (>= $k); $structural_limit: int; $live: list<string>.
// Returns: as gate_candidates_exact.
UNWIND $rows AS row
CALL (row) {
  CALL db.index.vector.queryNodes('belief_embedding', $fetch, row.embedding)
    YIELD node AS b, score
  WITH b, score
  WHERE b.status IN $live
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  ORDER BY score DESC, b.id
  LIMIT $k
  RETURN b, score
  UNION
  MATCH (e:Entity)<-[:ABOUT]-(b:Belief)
  WHERE e.key IN row.about AND b.status IN $live
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH DISTINCT b
  WITH b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  ORDER BY score DESC, b.id
  LIMIT $structural_limit
  RETURN b, score
  UNION
  MATCH (b:Belief {canonical_name: row.canonical_name})
  WHERE b.status IN $live
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  WITH b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  ORDER BY score DESC, b.id
  LIMIT $structural_limit
  RETURN b, score
}
RETURN row.i AS i, score, b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.trust AS trust, b.importance AS importance, b.canonical_name AS canonical_name,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
