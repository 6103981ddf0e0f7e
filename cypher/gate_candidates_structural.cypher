// name: gate_candidates_structural
// The live beliefs of each incoming belief's namespaces that share an entity or the
// canonical name with it: they can contradict it even when their text is not close, so the
// gate compares them whatever their similarity. At most $limit per incoming belief, the most
// recent first; the cosine is computed only for those (it is what costs).
// $rows: list of {i, user (null: shared), embedding, namespaces, about: list<string> (entity keys),
//                 canonical_name: string or null}
// $limit: int; $live: list<string>.
// A belief past its valid_to is history, never a candidate: a restated rule with a new
// window is stored, not folded into the expired one.
// Returns: as gate_candidates_exact.
UNWIND $rows AS row
CALL (row) {
  // beliefs about a shared entity, walked from whichever side is smaller: the namespaces'
  // beliefs, or the entity's (relationship counts are constant-time)
  OPTIONAL MATCH (n:Namespace)
  WHERE n.name IN row.namespaces
  WITH row, sum(COUNT { (n)<-[:IN]-() }) AS held
  MATCH (e:Entity)
  WHERE e.key IN row.about
  WITH row, held, sum(COUNT { (e)<-[:ABOUT]-() }) AS degree
  CALL (row, held, degree) {
    WITH row
    WHERE held <= degree
    MATCH (n:Namespace)<-[:IN]-(b:Belief)
    WHERE n.name IN row.namespaces AND b.status IN $live
      AND NOT coalesce(b.valid_to <= datetime(), false)
      AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
      AND EXISTS { (b)-[:ABOUT]->(x:Entity) WHERE x.key IN row.about }
    RETURN b
    UNION
    WITH row
    WHERE held > degree
    MATCH (e:Entity)<-[:ABOUT]-(b:Belief)
    WHERE e.key IN row.about AND b.status IN $live
      AND NOT coalesce(b.valid_to <= datetime(), false)
      AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
      AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
    RETURN b
  }
  RETURN b
  UNION
  MATCH (b:Belief {canonical_name: row.canonical_name})
  WHERE b.status IN $live
    AND NOT coalesce(b.valid_to <= datetime(), false)
    AND coalesce(b.user, '') = coalesce(row.user, '')  // one user's never another's
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN row.namespaces }
  RETURN b
}
WITH row, b
ORDER BY b.created_at DESC, b.id
WITH row, collect(b)[..$limit] AS recent
UNWIND recent AS b
RETURN row.i AS i, vector.similarity.cosine(b.embedding, row.embedding) AS score,
       b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.trust AS trust, b.importance AS importance, b.canonical_name AS canonical_name, b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {
         .key, .name,
         // its aliases in these namespaces only: a name given elsewhere decides nothing here
         aliases: reduce(acc = [], names IN [(e)-[k:NAMED_IN]->(m:Namespace) WHERE m.name IN row.namespaces
                                           | k.aliases] | acc + names)
       }] AS about
