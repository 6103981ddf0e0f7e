// name: audit_chain_get
// One audit chain's head.
// $chain: the chain name.
// Returns: name, length, head (no row when no such chain).
MATCH (c:AuditChain {name: $chain})
RETURN c.name AS name, c.length AS length, c.head AS head
