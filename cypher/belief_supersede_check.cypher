// name: belief_supersede_check
// What stands in the way of $new_id superseding $old_id.
// Returns: new_status, would_cycle (old already leads to new), new_supersedes (the id the
// new belief already replaces, or null). No row when either id is unknown.
MATCH (old:Belief {id: $old_id}), (new:Belief {id: $new_id})
RETURN new.status AS new_status,
       EXISTS { (old)-[:SUPERSEDES*]->(new) } AS would_cycle,
       head([(new)-[:SUPERSEDES]->(x:Belief) | x.id]) AS new_supersedes
