// name: gate_candidates_exact
// The gate's candidates for each incoming belief, for namespaces small enough to scan:
// the $k live beliefs of its namespaces nearest by exact cosine, plus every live belief
// (at most $structural_limit) that shares an entity or the canonical name with it — those
// can contradict it even when their text is not close.
// $rows: list of {i: int, embedding: list<float>, namespaces: list<string>,
//                 about: list<string> (entity keys), canonical_name: string or null}
// $k: int; $structural_limit: int; $live: list<string> (statuses a gate may compare with).
// Returns one row per (incoming, candidate): i, score (cosine scaled to 0..1 as Neo4j does),
// and the candidate's id, text, kind, status, trust, importance, canonical_name, namespaces,
// about (list of {key, name, aliases}).
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Namespace)<-[:IN]-(b:Belief)
  WHERE n.name IN row.namespaces AND b.status IN $live
  WITH DISTINCT b
  WITH b, vector.similarity.cosine(b.embedding, row.embedding) AS score
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
