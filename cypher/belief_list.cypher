// name: belief_list
// One page of belief ids in (created_at, id) order, after a keyset cursor.
// $namespace, $kind, $status: filters, each null for "any".
// $allowed: the namespaces the caller may read (a belief in any of them is listed), or
//   null for every namespace.
// $after_created_at, $after_id: the cursor (both null for the first page).
// $limit: page size.
// Returns: id, created_at.
MATCH (b:Belief)
WHERE ($namespace IS NULL OR EXISTS { (b)-[:IN]->(:Namespace {name: $namespace}) })
  AND ($allowed IS NULL OR EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $allowed })
  AND ($kind IS NULL OR b.kind = $kind)
  AND ($status IS NULL OR b.status = $status)
  AND ($after_created_at IS NULL
       OR b.created_at > $after_created_at
       OR (b.created_at = $after_created_at AND b.id > $after_id))
RETURN b.id AS id, b.created_at AS created_at
ORDER BY b.created_at, b.id
LIMIT $limit
