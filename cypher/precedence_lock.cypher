// name: precedence_lock
// Takes the one lock of explicit precedence for the rest of the transaction. OVERRIDES and
// NARROWS chains cross namespaces (scopes are shared by all), so the namespace locks alone
// would let two writers each find no loop and together close one. Taken before them.
MERGE (l:Lock {name: 'precedence'})
SET l.version = coalesce(l.version, 0) + 1
