// name: compat_pmb_lookup
// Whether a belief id is taken, and whether every namespace of that belief is a compat
// namespace (the compat router may replace only those).
// $id: belief id; $prefix: the compat namespace prefix.
// Returns: compat (no row when the id is free).
MATCH (b:Belief {id: $id})
RETURN all(ns IN [(b)-[:IN]->(n:Namespace) | n.name] WHERE ns STARTS WITH $prefix) AS compat
