// name: belief_lock
// Takes the write lock on a belief for the rest of the transaction, so two concurrent
// supersessions of one belief serialise instead of forking the chain, then reads its state.
// $id: the belief id.
// Returns: id, status, superseded_by (no row when the id is unknown).
MATCH (b:Belief {id: $id})
SET b.lock_version = coalesce(b.lock_version, 0) + 1
RETURN b.id AS id, b.status AS status,
       head([(n:Belief)-[:SUPERSEDES]->(b) | n.id]) AS superseded_by
