// name: audit_list_in
// audit_list for a caller whose namespaces' chains hold a small part of the log: their
// events are read through the (chain, seq) index, then sorted, so a page reads what those
// chains hold, not the log. The same rows as audit_list.
// $chains: list<string> (not null); the other params as audit_list.
// Returns: event (as audit_list).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain IN $chains AND a.seq IS NOT NULL
  AND a.at >= coalesce($since, datetime('1970-01-01T00:00:00Z'))
  AND ($action IS NULL OR a.action = $action)
  AND ($belief IS NULL OR $belief IN a.beliefs)
  AND (CASE WHEN size(a.namespaces) = 0 THEN $system
            ELSE $allowed IS NULL OR all(n IN a.namespaces WHERE n IN $allowed) END)
  AND ($before_at IS NULL OR a.at < $before_at OR (a.at = $before_at AND a.id < $before_id))
WITH a
ORDER BY a.at DESC, a.id DESC
LIMIT $limit
RETURN a {.*, at: toString(a.at)} AS event
