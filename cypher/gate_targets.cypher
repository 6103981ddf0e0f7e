// name: gate_targets
// What an explicit change (supersede, retract) needs to know of the beliefs it touches
// before it locks them: their namespaces never change after creation, so reading them
// first and then locking those namespaces is safe.
// $ids: list<string>.
// Returns: id, text, kind, status, trust, namespaces (no row for an unknown id).
UNWIND $ids AS id
MATCH (b:Belief {id: id})
RETURN b.id AS id, b.text AS text, b.kind AS kind, b.status AS status, b.trust AS trust,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces
