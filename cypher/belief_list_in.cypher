// name: belief_list_in
// belief_list for namespaces that hold a small part of the store: their beliefs are read
// and sorted, so a page reads what they hold, not the store. The same rows as belief_list.
// $names: list<string>, the namespaces to list (not null).
// $allowed, $kind, $status, $after_created_at, $after_id, $limit: as belief_list.
// Returns: id, created_at (text, as belief_list).
MATCH (n:Namespace)<-[:IN]-(b:Belief)
WHERE n.name IN $names
WITH DISTINCT b
WHERE ($after_created_at IS NULL
       OR b.created_at > $after_created_at
       OR (b.created_at = $after_created_at AND b.id > $after_id))
  AND ($allowed IS NULL OR EXISTS { (b)-[:IN]->(a:Namespace) WHERE a.name IN $allowed })
  AND ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
RETURN b.id AS id, toString(b.created_at) AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
