// name: scope_narrow
// Makes the scope $narrow governs NARROW the scope $broad governs: when both beliefs are in
// the planner's authority lane, the narrower wins (DESIGN §3.4). A scope is shared by every
// belief that governs the same terms, in every namespace. Kept once. Writes nothing when a
// belief governs no scope ('missing'), both govern the same one ('same'), or the broad
// scope already narrows the other, directly or through others ('loop').
// $narrow, $broad, $by, $reason: string; $now: datetime.
// Returns one row: problem (null, 'missing', 'same' or 'loop'), created (bool), edge (at, by,
// reason; null on a problem), narrow_scope and broad_scope (the scopes' keys).
MATCH (a:Belief {id: $narrow}), (b:Belief {id: $broad})
OPTIONAL MATCH (a)-[:GOVERNS]->(sa:Scope)
OPTIONAL MATCH (b)-[:GOVERNS]->(sb:Scope)
OPTIONAL CALL (sa, sb) {
  WITH sa, sb WHERE sa IS NOT NULL AND sb IS NOT NULL AND sa <> sb
  MATCH (sb)-[:NARROWS*1..]->(sa)
  RETURN true AS loop LIMIT 1
}
WITH sa, sb, CASE WHEN sa IS NULL OR sb IS NULL THEN 'missing' WHEN sa = sb THEN 'same'
                  WHEN loop THEN 'loop' END AS problem,
     EXISTS { (sa)-[:NARROWS]->(sb) } AS existed
OPTIONAL CALL (sa, sb, problem) {
  WITH sa, sb WHERE problem IS NULL
  MERGE (sa)-[r:NARROWS]->(sb)
    ON CREATE SET r.at = $now, r.by = $by, r.reason = $reason
  RETURN r
}
RETURN problem, r IS NOT NULL AND NOT existed AS created, properties(r) AS edge,
       sa.key AS narrow_scope, sb.key AS broad_scope
