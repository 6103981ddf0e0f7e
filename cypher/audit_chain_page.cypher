// name: audit_chain_page
// One page of a chain's events in sequence order, for verification (keyset on seq, read
// through the (chain, seq) constraint's index in its order).
// $chain: string; $after: int (the last seq seen, 0 at the start); $limit: int.
// Returns: event (map of every property).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain = $chain AND a.seq > $after
RETURN a {.*} AS event
ORDER BY a.chain, a.seq
LIMIT $limit
