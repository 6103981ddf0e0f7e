// name: gate_reinforce
// Reinforces existing beliefs instead of storing a repeat (verdicts noop and subsumed).
// $rows: list of {id: string, times: int}; $now: datetime.
// Returns nothing.
UNWIND $rows AS row
MATCH (b:Belief {id: row.id})
SET b.reinforcement_count = coalesce(b.reinforcement_count, 0) + row.times,
    b.last_reinforced_at = $now,
    b.updated_at = $now
