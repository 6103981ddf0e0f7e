// name: audit_scan
// One page of the events of the chains after $after_chain, in (chain, seq) order, for
// verifying the whole log; read through the (chain, seq) constraint's index in its order, so
// no sort. A chain cut by the page end is finished with audit_chain_page.
// $after_chain: string ('' at the start); $limit: int.
// Returns: event (map of every property).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain > $after_chain AND a.seq IS NOT NULL
RETURN a {.*} AS event
ORDER BY a.chain, a.seq
LIMIT $limit
