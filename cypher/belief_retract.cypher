// name: belief_retract
// Retracts a belief: it stays in the graph, with its history, marked retracted.
// $id: the belief id; $now: datetime.
// Returns: id (no row when the id is unknown).
MATCH (b:Belief {id: $id})
SET b.status_before_retraction = coalesce(b.status_before_retraction, b.status),
    b.status = 'retracted',
    b.retracted_at = coalesce(b.retracted_at, $now),
    b.updated_at = $now,
    b:Retracted
RETURN b.id AS id
