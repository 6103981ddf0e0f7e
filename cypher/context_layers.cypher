// name: context_layers
// The query-independent layers of one user's context:
//   persona  - universal preferences the user stated ($persona_kinds in $persona_namespaces;
//              not an inference),
//   pinned   - pinned beliefs of the turn's scope ($namespaces), plus pinned beliefs the user
//              confirmed (epistemic_status 'confirmed') in any namespace the caller may
//              read ($visible, null: all): what the user said themselves follows them;
//   question - pinned open questions of the turn's scope.
// Superseded, retracted, archived ($statuses), resolved and expired (valid_to passed) beliefs
// never appear.
// $user: string; $namespaces, $persona_namespaces, $persona_kinds, $statuses: list<string>;
// $persona_keys: list<string>, the index terms of $persona_namespaces (beliefgraph/index_keys.py);
// $visible: list<string> or null; $persona_limit, $pinned_limit, $questions_limit: int;
// $key: string or null, the hash of an API key the API recognised from memory instead of
// reading it (api/auth.py): this read confirms it is still valid, in the same round trip,
// and reads no belief when it is revoked or gone (as planner_candidates.cypher does).
// Returns one row: key_state ('ok', also when $key is null; 'revoked'; 'unknown') and rows,
// a list of [layer, belief (map without embedding), namespaces], one per belief read, in
// each layer's order (one record, not one per belief: each costs the driver ~20 us).
CALL () {
  OPTIONAL MATCH (k:ApiKey {hash: $key})
  // read as a map: in a store where no key was ever revoked, k.revoked_at would have the
  // server warn, on every query, of a property key that does not exist
  RETURN CASE WHEN $key IS NULL THEN 'ok' WHEN k IS NULL THEN 'unknown'
              WHEN properties(k).revoked_at IS NOT NULL THEN 'revoked' ELSE 'ok' END
         AS key_state
}
// For a refused key every layer looks for the beliefs of no one (a null user matches none).
WITH key_state, CASE WHEN key_state = 'ok' THEN $user END AS owner
OPTIONAL CALL (owner) {
  UNWIND $persona_kinds AS kind
  CALL (owner, kind) {
    // A user can hold thousands of preferences: the index belief_persona_order hands
    // them over best first (pinned, then confidence; the rest of the order within each
    // such group), so only the best few are read. Their namespaces are read first from the
    // belief's own search_keys (one property, no relationship walk; a belief written
    // before search_keys existed passes), then the rest (status, and the graph, which says
    // the last word on namespaces), in order, until the limit is met (the order of a
    // WITH ... ORDER BY is kept by the filter and the limit that follow it). The index
    // holds every belief: the model always sets pinned and confidence.
    MATCH (b:Belief {user: owner, kind: kind})
    USING INDEX b:Belief(user, kind, pinned, confidence)
    WHERE b.pinned IS NOT NULL AND b.confidence IS NOT NULL
      AND (b.search_keys IS NULL OR any(key IN $persona_keys WHERE b.search_keys CONTAINS key))
    // the index's order: its equality columns must be named for the planner to use it
    WITH b ORDER BY b.user DESC, b.kind DESC, b.pinned DESC, b.confidence DESC,
                    coalesce(b.last_reinforced_at, b.created_at) DESC, b.id
    WITH b
    // an inference (an agent's, an assistant's paraphrase) is not what the user stated
    WHERE b.status IN $statuses AND b.status <> 'inferred' AND b.resolved_at IS NULL
      AND NOT coalesce(b.valid_to <= datetime(), false)
      AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $persona_namespaces }
    WITH b LIMIT $persona_limit
    RETURN b
  }
  // the best of each kind, merged
  WITH b ORDER BY b.pinned DESC, b.confidence DESC,
                  coalesce(b.last_reinforced_at, b.created_at) DESC, b.id
  LIMIT $persona_limit
  RETURN b, 'persona' AS layer
  UNION ALL
  MATCH (b:Belief {user: owner, pinned: true})
  WHERE b.kind <> 'open_question'
    AND b.status IN $statuses AND b.resolved_at IS NULL
    AND NOT coalesce(b.valid_to <= datetime(), false)
    AND NOT EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $persona_namespaces }
    AND (EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $namespaces }
         OR (b.epistemic_status = 'confirmed'
             AND ($visible IS NULL
                  OR EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $visible })))
  WITH b ORDER BY coalesce(b.last_reinforced_at, b.created_at) DESC, b.confidence DESC, b.id
  LIMIT $pinned_limit
  RETURN b, 'pinned' AS layer
  UNION ALL
  MATCH (b:Belief {user: owner, pinned: true})
  WHERE b.kind = 'open_question'
    AND b.status IN $statuses AND b.resolved_at IS NULL
    AND NOT coalesce(b.valid_to <= datetime(), false)
    AND EXISTS { (b)-[:IN]->(n:Namespace) WHERE n.name IN $namespaces }
  WITH b ORDER BY coalesce(b.last_reinforced_at, b.created_at) DESC, b.confidence DESC, b.id
  LIMIT $questions_limit
  RETURN b, 'question' AS layer
}
RETURN key_state,
       collect(CASE WHEN b IS NOT NULL THEN [
         layer,
         b {.id, .text, .kind, .status, .epistemic_status, .canonical_name, .aliases,
            .why_it_matters, .pinned, .confidence, .user,
            // as text: the driver builds a DateTime ~60 µs slower than fromisoformat
            last_reinforced_at: toString(b.last_reinforced_at)},
         [(b)-[:IN]->(n:Namespace) | n.name]
       ] END) AS rows
