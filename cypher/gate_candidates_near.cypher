// name: gate_candidates_near
// The live beliefs among the given ids: the nearest to incoming beliefs as ranked by the
// gate's in-process vectors (vectors.py). Neo4j reads only these few, each once, and says
// which are still live; the scores are the gate's own.
// $ids: list<string>; $live: list<string>.
// Returns one row per live belief: its id, text, kind, status, trust, importance,
// canonical_name, user, namespaces, about (as gate_candidates_exact).
UNWIND $ids AS id
MATCH (b:Belief {id: id})
WHERE b.status IN $live
RETURN b.id AS id, b.text AS text, b.kind AS kind, b.status AS status, b.trust AS trust,
       b.importance AS importance, b.canonical_name AS canonical_name, b.user AS user,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e {.key, .name, .aliases}] AS about
