// name: gate_namespace_sizes
// How many beliefs each namespace holds, without locking (for dry runs).
// $names: list<string>.
// Returns: name, beliefs (no row for a namespace that does not exist).
UNWIND $names AS name
MATCH (n:Namespace {name: name})
RETURN n.name AS name, COUNT { (n)<-[:IN]-(:Belief) } AS beliefs
