// name: belief_list
// One page of belief ids in (created_at, id) order, after a keyset cursor, read in that
// order from the belief_created_at index: a page reads about what it lists when the
// namespaces hold much of the store (or all of it is listed); belief_list_in is for the rest.
// $names: the namespaces to list (a belief in any of them), or null for every namespace.
// $allowed: the namespaces the caller may read (a belief in any of them is listed), or
//   null for every namespace.
// $kind, $status: filters, each null for "any".
// $after_created_at, $after_id: the cursor (both null for the first page).
// $limit: page size.
// Returns: id, created_at (ISO 8601 text: the driver builds a DateTime ~130 us slower).
MATCH (b:Belief)
USING INDEX b:Belief(created_at, id)
WHERE b.created_at >= coalesce($after_created_at, datetime('1970-01-01T00:00:00Z'))
  AND b.id IS NOT NULL
  AND ($after_created_at IS NULL
       OR b.created_at > $after_created_at
       OR b.id > $after_id)
  AND ($names IS NULL OR EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $names })
  AND ($allowed IS NULL OR EXISTS { (b)-[:IN]->(a:Namespace) WHERE a.name IN $allowed })
  AND ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
RETURN b.id AS id, toString(b.created_at) AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
