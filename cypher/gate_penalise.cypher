// name: gate_penalise
// Lowers the importance of older beliefs made redundant by a compatible newer one.
// $rows: list of {id: string, factor: float in 0..1}; $now: datetime.
// Returns nothing.
UNWIND $rows AS row
MATCH (b:Belief {id: row.id})
SET b.importance = b.importance * row.factor, b.updated_at = $now
