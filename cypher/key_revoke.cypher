// name: key_revoke
// Revokes an API key (kept, so the audit log's actors stay resolvable). Idempotent.
// $id: the key id; $now: datetime.
// Returns: key (map without the hash), was_active (no row when the id is unknown).
MATCH (k:ApiKey {id: $id})
WITH k, k.revoked_at IS NULL AS was_active
SET k.revoked_at = coalesce(k.revoked_at, $now)
RETURN k {.*, hash: null} AS key, was_active
