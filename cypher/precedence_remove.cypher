// name: precedence_remove
// Removes the explicit precedence of $source over $target: its OVERRIDES edge ($type
// 'OVERRIDES'), or the NARROWS edge between the scopes they govern ($type 'NARROWS'). The
// audit event that removal writes keeps what the edge said.
// $source, $target, $type: string.
// Returns one row per edge removed: edge (its properties: at, by, reason).
MATCH (a:Belief {id: $source}), (b:Belief {id: $target})
CALL (a, b) {
  WITH a, b WHERE $type = 'OVERRIDES'
  MATCH (a)-[r]->(b) WHERE type(r) = 'OVERRIDES'
  RETURN r
  UNION
  WITH a, b WHERE $type = 'NARROWS'
  MATCH (a)-[:GOVERNS]->(:Scope)-[r]->(:Scope)<-[:GOVERNS]-(b) WHERE type(r) = 'NARROWS'
  RETURN r
}
WITH r, properties(r) AS edge
DELETE r
RETURN edge
