// name: audit_list
// Audit events newest first, filtered, one page at a time (keyset on (at, id)), read in that
// order from the audit_event_at index, at most $scan events of it (null: no bound).
// audit.list_events bounds it for a key limited to namespaces, and reads audit_list_in when
// those events did not fill the page: a page reads about what it lists where the key's events
// are dense in time, and what its chains hold where they are not.
// $scan: int or null, how many events in order to read at most before filtering.
// $action: string or null; $since: datetime or null; $belief: id or null;
// $allowed: list of namespaces the caller may see, or null for all;
// $system: whether events that touch no namespace (key changes) are visible;
// $before_at, $before_id: the cursor (both null for the first page); $limit: int.
// Returns: event (map of every property, the time as ISO 8601 text: the driver builds a
// DateTime ~130 us slower).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(at, id)
WHERE a.at >= coalesce($since, datetime('1970-01-01T00:00:00Z'))
  // the cursor bounds the index read too: a deep page does not pass over the pages before it
  AND a.at <= coalesce($before_at, datetime('9999-12-31T23:59:59Z')) AND a.id IS NOT NULL
  AND ($before_at IS NULL OR a.at < $before_at OR (a.at = $before_at AND a.id < $before_id))
WITH a
ORDER BY a.at DESC, a.id DESC
LIMIT coalesce($scan, 9223372036854775807)
WITH a
WHERE ($action IS NULL OR a.action = $action)
  AND ($belief IS NULL OR $belief IN a.beliefs)
  AND (CASE WHEN size(a.namespaces) = 0 THEN $system
            ELSE $allowed IS NULL OR all(n IN a.namespaces WHERE n IN $allowed) END)
RETURN a {.*, at: toString(a.at)} AS event
ORDER BY a.at DESC, a.id DESC
LIMIT $limit
