// name: gate_candidates_index
// The $k live beliefs of each incoming belief's namespaces nearest to it, through the
// vector index: 5.26 cannot filter inside the index, so it asks for the $fetch nearest
// beliefs of the whole store and keeps those of the belief's namespaces. Fewer than $k rows
// for an incoming belief means the namespace is rare among its neighbours: the gate then
// asks again with a larger $fetch, and finally scans (gate_candidates_exact).
// $rows: list of {i, user (null: shared), embedding, namespaces} (see gate_candidates_exact)
// $k: int; $fetch: int (>= $k); $live: list<string>.
// A belief past its valid_to is history, never a candidate: a restated rule with a new
// window is stored, not folded into the expired one.
// Returns: as gate_candidates_exact.
UNWIND $rows AS row
CALL (row) {
  CALL db.index.vector.queryNodes('belief_embedding', $fetch, row.embedding)
    YIELD node AS b, score
  WITH b, score
  WHERE b.status IN $live
    AND NOT coalesce(b.valid_to <= datetime(), false)
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
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
