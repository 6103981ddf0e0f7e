// name: audit_chain_page
// One page of a chain's events in sequence order, for verification (keyset on seq, read
// through the (chain, seq) constraint's index in its order).
// $chain: string; $after: int (the last seq seen, 0 at the start); $limit: int.
// Returns one row: rows, the events in order (maps of every property, the time as ISO 8601
// text; one record, not one per event: each costs the driver ~20 us, and a DateTime ~130).
MATCH (a:AuditEvent)
USING INDEX a:AuditEvent(chain, seq)
WHERE a.chain = $chain AND a.seq > $after
WITH a
ORDER BY a.chain, a.seq
LIMIT $limit
RETURN collect(a {.*, at: toString(a.at)}) AS rows
