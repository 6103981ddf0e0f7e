// name: belief_list
// One page of belief ids in (created_at, id) order, after a keyset cursor, read in that
// order from the belief_created_at index, at most $scan beliefs of it (null: no bound).
// Store.list_beliefs bounds it when namespaces are asked for, and reads belief_list_in when
// those beliefs did not fill the page: a page reads about what it lists where the listed
// beliefs are dense in time, and what their namespaces hold where they are not.
// $scan: int or null, how many beliefs in order to read at most before filtering.
// $namespace: a namespace the belief must be in, or null.
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
       OR (b.created_at = $after_created_at AND b.id > $after_id))
WITH b
ORDER BY b.created_at, b.id
LIMIT coalesce($scan, 9223372036854775807)
WITH b
WHERE ($namespace IS NULL OR EXISTS { (b)-[:IN]->(:Namespace {name: $namespace}) })
  AND ($allowed IS NULL OR EXISTS { (b)-[:IN]->(a:Namespace) WHERE a.name IN $allowed })
  AND ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
RETURN b.id AS id, toString(b.created_at) AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
