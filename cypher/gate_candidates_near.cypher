// name: gate_candidates_near
// The live beliefs among the given ids: the nearest to incoming beliefs as ranked by the
// gate's in-process vectors (beliefgraph/gate/vectors.py). Neo4j reads only these few, each once, and says
// which are still live, and what they are about (entities gain aliases from other writes in
// $namespaces, the write's: the aliases given elsewhere are not read);
// the scores, and the rest of what the gate compares (text, kind, trust, names,
// namespaces: only the compat router's in-place replace changes them, and it makes the
// copies reload), are the copies' own.
// $ids: list<string>; $namespaces: list<string>; $live: list<string>.
// A belief past its valid_to is history, never a candidate: a restated rule with a new
// window is stored, not folded into the expired one.
// Returns one row: rows, a list of {id, about: list of {key, name, aliases}}, one per live
// belief (one row, not one per belief: each record costs the driver ~20 us of Python).
UNWIND $ids AS id
MATCH (b:Belief {id: id})
WHERE b.status IN $live
  AND NOT coalesce(b.valid_to <= datetime(), false)
RETURN collect({id: b.id, about: [(b)-[:ABOUT]->(e:Entity) | e {
  .key, .name,
  // its aliases in these namespaces only: a name given elsewhere decides nothing here
  aliases: reduce(acc = [], names IN [(e)-[k:NAMED_IN]->(m:Namespace) WHERE m.name IN $namespaces
                                    | k.aliases] | acc + names)
}]}) AS rows
