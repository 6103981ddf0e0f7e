// name: key_list
// Every API key, oldest first, without hashes.
// Returns: key (map).
MATCH (k:ApiKey)
RETURN k {.*, hash: null} AS key
ORDER BY k.created_at, k.id
