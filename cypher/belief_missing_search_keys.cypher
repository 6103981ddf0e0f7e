// name: belief_missing_search_keys
// Beliefs written before search_keys existed (or by a writer that left it out): the
// full-text searches that keep to a scope (index_keys.py) cannot see them until it is set.
// $limit: int.
// Returns up to $limit rows: id, user, namespaces.
MATCH (b:Belief)
WHERE b.search_keys IS NULL
RETURN b.id AS id, b.user AS user, [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces
LIMIT $limit
