// name: belief_override
// Makes $winner OVERRIDE $loser: explicit precedence (DESIGN §3.4), which the planner applies
// before every other rule when both are in its authority lane. Kept once: a second call
// finds the edge. Writes nothing when $loser already overrides $winner, directly or through
// others: the order would loop.
// $winner, $loser, $by, $reason: string; $now: datetime.
// Returns one row: loop (bool), created (bool; false: the edge was there), edge (its
// properties: at, by, reason; null on a loop).
MATCH (w:Belief {id: $winner}), (l:Belief {id: $loser})
OPTIONAL CALL (w, l) {
  MATCH (l)-[:OVERRIDES*1..]->(w)
  RETURN true AS loop LIMIT 1
}
WITH w, l, loop, EXISTS { (w)-[:OVERRIDES]->(l) } AS existed
OPTIONAL CALL (w, l, loop) {
  WITH w, l WHERE loop IS NULL
  MERGE (w)-[r:OVERRIDES]->(l)
    ON CREATE SET r.at = $now, r.by = $by, r.reason = $reason
  RETURN r
}
RETURN loop IS NOT NULL AS loop, r IS NOT NULL AND NOT existed AS created,
       properties(r) AS edge
