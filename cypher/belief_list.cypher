// name: belief_list
// One page of belief ids in (created_at, id) order, after a keyset cursor, read in that
// order from the belief_created_at index, at most $scan beliefs of it (null: no bound).
// Store.list_beliefs bounds it when the listing keeps to namespaces, and reads
// belief_list_in when those beliefs did not fill the page.
// $scan: int or null, how many beliefs in order to read at most before filtering.
// $anchor: the namespaces to list (a belief in any of them), all the caller's to see, or null
//   for every namespace.
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
       OR (b.created_at = $after_created_at AND b.id > $after_id))
WITH b
ORDER BY b.created_at, b.id
LIMIT coalesce($scan, 9223372036854775807)
WITH b
WHERE ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
  AND ($anchor IS NULL OR EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $anchor })
RETURN b.id AS id, toString(b.created_at) AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
