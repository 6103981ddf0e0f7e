// name: compat_pmb_names
// The names and text of a stored compat belief, to read an update that sends its aliases
// only inside the text (the harness's session adapter does).
// $id: belief id; $prefix: the compat namespace prefix.
// Returns: canonical_name, aliases, text (no row for an unknown or non-compat belief).
MATCH (b:Belief {id: $id})
WHERE all(ns IN [(b)-[:IN]->(n:Namespace) | n.name] WHERE ns STARTS WITH $prefix)
RETURN b.canonical_name AS canonical_name, coalesce(b.aliases, []) AS aliases, b.text AS text
