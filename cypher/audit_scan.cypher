// name: audit_scan
// One page of the events of the chains after $after_chain, in (chain, seq) order, for
// verifying the whole log; read through the (chain, seq) constraint's index in its order, so
// no sort. A chain cut by the page end is finished with audit_chain_page.
// $after_chain: string ('' at the start); $limit: int.
// Returns one row: rows, the events in order (maps of every property, the time as ISO 8601
// text; one record, not one per event: each costs the driver ~20 us, and a DateTime ~130).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain > $after_chain AND a.seq IS NOT NULL
WITH a
ORDER BY a.chain, a.seq
LIMIT $limit
RETURN collect(a {.*, at: toString(a.at)}) AS rows
