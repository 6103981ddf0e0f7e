// name: gate_candidates_exact
// The $k live beliefs of each incoming belief's namespaces nearest to it by exact cosine:
// a scan of the namespace, for namespaces small enough (see beliefgraph/gate/: a global vector index
// top-k can miss a small namespace entirely).
// $rows: list of {i, user (null: shared), embedding: list<float>, namespaces: list<string>}
// $k: int; $live: list<string> (statuses a gate may compare with).
// A belief past its valid_to is history, never a candidate: a restated rule with a new
// window is stored, not folded into the expired one.
// Returns one row per (incoming, candidate): score (cosine scaled to 0..1 as Neo4j does),
// and the candidate's id, text, kind, status, trust, importance, canonical_name, user, namespaces,
// about (list of {key, name, aliases: the entity's aliases in row.namespaces}).
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Namespace)<-[:IN]-(b:Belief)
  WHERE n.name IN row.namespaces AND b.status IN $live
    AND NOT coalesce(b.valid_to <= datetime(), false)
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
  WITH DISTINCT b
  WITH b, vector.similarity.cosine(b.embedding, row.embedding) AS score
  ORDER BY score DESC, b.id
  LIMIT $k
  RETURN b, score
}
RETURN row.i AS i, score, b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.trust AS trust, b.importance AS importance, b.canonical_name AS canonical_name, b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {
         .key, .name,
         // its aliases in these namespaces only: a name given elsewhere decides nothing here
         aliases: reduce(acc = [], names IN [(e)-[k:NAMED_IN]->(m:Namespace) WHERE m.name IN row.namespaces
                                           | k.aliases] | acc + names)
       }] AS about
