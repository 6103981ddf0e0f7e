// name: compat_pmb_replace
// Replaces a compat belief in place (PrecisionMemBench's upsert and update): its properties,
// embedding, namespaces and the entity of its canonical name (with its aliases in the new
// namespaces, on NAMED_IN edges). A belief that something
// already supersedes stays superseded. Every namespace it leaves or joins has its
// lock_token replaced, so the gate's in-process vector copies of them are reloaded
// (beliefgraph/gate/vectors.py: only the gate's own writes may leave a copy in step).
// $id: belief id; $props: map of Belief properties (a null removes one); $embedding: list<float>;
// $embedding_f32: bytes (the same vector, see belief_create);
// $namespaces: list<string>; $about: list<{key, name, aliases}>.
// Returns: id.
MATCH (b:Belief {id: $id})
SET b += $props, b.embedding_f32 = $embedding_f32
SET b.status = CASE WHEN EXISTS { (:Belief)-[:SUPERSEDES]->(b) } THEN 'superseded' ELSE b.status END
WITH b
CALL db.create.setNodeVectorProperty(b, 'embedding', $embedding)
CALL (b) {
  MATCH (b)-[r:IN]->(n:Namespace)
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = randomUUID()
  DELETE r
}
CALL (b) {
  UNWIND $namespaces AS ns
  MERGE (n:Namespace {name: ns})
  SET n.lock_version = coalesce(n.lock_version, 0) + 1, n.lock_token = randomUUID()
  CREATE (b)-[:IN]->(n)
}
CALL (b) {
  UNWIND $about AS e
  MERGE (en:Entity {key: e.key})
    ON CREATE SET en.name = e.name
  MERGE (b)-[:ABOUT]->(en)
  // the aliases, per namespace (as belief_create)
  WITH en, e WHERE size(e.aliases) > 0
  UNWIND $namespaces AS ns
  MATCH (n:Namespace {name: ns})
  MERGE (en)-[k:NAMED_IN]->(n)
    ON CREATE SET k.aliases = []
  WITH k, reduce(acc = k.aliases, a IN e.aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END)
            AS aliases
  SET k.aliases = aliases, k.aliases_text = toLower(reduce(s = '', a IN aliases | s + ' ' + a))
}
RETURN b.id AS id
