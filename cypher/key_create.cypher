// name: key_create
// Stores a new API key (its hash, never the key itself).
// $props: map {id, name, role, namespaces (list or null), hash, created_at, created_by}.
// Returns: key (map without the hash).
CREATE (k:ApiKey)
SET k = $props
RETURN k {.*, hash: null} AS key
