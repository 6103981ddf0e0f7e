// name: context_participants
// One hop from relation beliefs to the beliefs they link (RELATES), as context expands a
// relation it surfaced: only the same user's beliefs in the turn's scope that may surface
// (not superseded, retracted, archived, resolved or expired).
// $ids: relation belief ids, best first; $user: string; $namespaces, $statuses: list<string>.
// Returns one row: rows, a list of [belief (map without embedding), namespaces], in the
// order of $ids, then of the participants' ids.
UNWIND range(0, size($ids) - 1) AS i
MATCH (r:Belief {id: $ids[i]})-[:RELATES]->(b:Belief {user: $user})
WHERE b.status IN $statuses AND b.resolved_at IS NULL
  AND NOT coalesce(b.valid_to <= datetime(), false)
  AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $namespaces }
WITH i, b ORDER BY i, b.id
RETURN collect([
  b {.id, .text, .kind, .status, .epistemic_status, .canonical_name, .aliases,
     .why_it_matters, .pinned, .confidence, .user,
     last_reinforced_at: toString(b.last_reinforced_at)},
  [(b)-[:IN]->(n:Namespace) | n.name]
]) AS rows
