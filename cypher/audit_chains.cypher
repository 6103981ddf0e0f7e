// name: audit_chains
// Every audit chain's head, for verification.
// Returns: name, length, head (hash of the last event, or null).
MATCH (c:AuditChain)
RETURN c.name AS name, c.length AS length, c.head AS head
ORDER BY name
