// name: gate_candidates_near
// The live beliefs among each incoming belief's nearest, as ranked by the gate's in-process
// vectors (vectors.py): Neo4j reads only these few, and says which are still live.
// $rows: list of {i: int, near: list of {id, score (cosine scaled to 0..1 as Neo4j does)}};
// $live: list<string>.
// Returns: as gate_candidates_exact.
UNWIND $rows AS row
CALL (row) {
  UNWIND row.near AS near
  MATCH (b:Belief {id: near.id})
  WHERE b.status IN $live
  RETURN b, near.score AS score
}
RETURN row.i AS i, score, b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.trust AS trust, b.importance AS importance, b.canonical_name AS canonical_name, b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
