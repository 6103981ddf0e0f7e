// name: key_lookup
// The key with this hash, for authenticating a request.
// $hash: hex sha256 of the presented key.
// Returns: key (map without the hash; no row when unknown).
MATCH (k:ApiKey {hash: $hash})
RETURN k {.*, hash: null} AS key
