// name: belief_list_in
// belief_list from the beliefs of the namespaces $anchor, which the caller may all see: they
// are read and sorted, so a page reads what those namespaces hold, not the store. The same
// rows as belief_list.
// $anchor: list<string>, namespaces that hold every belief to list (not null).
// $kind, $status, $after_created_at, $after_id, $limit: as belief_list.
// Returns: id, created_at (text, as belief_list).
MATCH (n:Namespace)<-[:IN]-(b:Belief)
// from the namespaces, always: with the cursor's range in this WHERE, the planner preferred the
// belief_created_at index (belief_list's way), which reads the store for a sparse namespace
USING INDEX n:Namespace(name)
WHERE n.name IN $anchor
  AND ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
WITH DISTINCT b
WHERE b.created_at >= coalesce($after_created_at, datetime('1970-01-01T00:00:00Z'))
  AND b.id IS NOT NULL
  AND ($after_created_at IS NULL
       OR b.created_at > $after_created_at
       OR (b.created_at = $after_created_at AND b.id > $after_id))
RETURN b.id AS id, toString(b.created_at) AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
