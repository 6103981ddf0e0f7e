// name: gate_contest
// Contradictions the guards kept from superseding (the writer's trust is too low, an agent
// against an authority, or the old belief lives in namespaces the writer does not): the new
// belief is stored, marked contested and linked CONTRADICTS to the one it disputes, which
// keeps governing.
// $rows: list of {old_id, new_id, reason, by (actor or null), guard}; $now: datetime.
// Returns: new_id.
UNWIND $rows AS row
MATCH (old:Belief {id: row.old_id}), (new:Belief {id: row.new_id})
CREATE (new)-[:CONTRADICTS {at: $now, reason: row.reason, by: row.by, guard: row.guard}]->(old)
SET new.epistemic_status = 'contested', new:Contested
RETURN new.id AS new_id
