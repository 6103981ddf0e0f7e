// name: audit_list_in
// audit_list from the events of the chains $chains: they are read through the (chain, seq)
// index and sorted, so a page reads what those chains hold, not the log. An event goes to the
// chain of its least namespace by name (audit.chain_for), so the chains of a key's namespaces
// hold every event the key may see (and maybe others, filtered here). The same rows as
// audit_list.
// $chains: list<string> (not null); the other params as audit_list.
// Returns: event (as audit_list).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain IN $chains AND a.seq IS NOT NULL
WITH a
WHERE a.at >= coalesce($since, datetime('1970-01-01T00:00:00Z')) AND a.id IS NOT NULL
  AND ($before_at IS NULL OR a.at < $before_at OR (a.at = $before_at AND a.id < $before_id))
  AND ($action IS NULL OR a.action = $action)
  AND ($belief IS NULL OR $belief IN a.beliefs)
  AND (CASE WHEN size(a.namespaces) = 0 THEN $system
            ELSE $allowed IS NULL OR all(n IN a.namespaces WHERE n IN $allowed) END)
WITH a
ORDER BY a.at DESC, a.id DESC
LIMIT $limit
RETURN a {.*, at: toString(a.at)} AS event
