// name: audit_list_touching
// audit_list for one belief that exists, from the events that touch it (TOUCHED: every event
// that names a belief existing when it is written has one), so a page reads the belief's
// history, not the log. known: whether the belief exists (else audit_list reads the log:
// a deleted belief's events name it but touch nothing). Only the compat reset deletes beliefs;
// one written again under the same id afterwards has the new belief's history here.
// $belief: id; the other params as audit_list.
// Returns one row: known, events (maps as audit_list's event, newest first).
OPTIONAL MATCH (b:Belief {id: $belief})
CALL (b) {
  MATCH (b)<-[:TOUCHED]-(a:AuditEvent)
  WHERE a.at >= coalesce($since, datetime('1970-01-01T00:00:00Z')) AND a.id IS NOT NULL
    AND ($before_at IS NULL OR a.at < $before_at OR (a.at = $before_at AND a.id < $before_id))
    AND ($action IS NULL OR a.action = $action)
    AND (CASE WHEN size(a.namespaces) = 0 THEN $system
              ELSE $allowed IS NULL OR all(n IN a.namespaces WHERE n IN $allowed) END)
  WITH a
  ORDER BY a.at DESC, a.id DESC
  LIMIT $limit
  RETURN collect(a {.*, at: toString(a.at)}) AS events
}
RETURN b IS NOT NULL AS known, events
