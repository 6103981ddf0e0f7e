// name: eval_namespace_beliefs
// Every belief of one namespace with its cosine similarity to a query, for the baseline
// strategies of the governance evaluation (bm25, vector, authority_lane), which rank the
// whole scenario store themselves.
// $namespace: string; $embedding: list<float> (384).
// Returns: id, text, kind, status, priority, epistemic_status, allowed_action,
//          verification_required, similarity.
MATCH (:Namespace {name: $namespace})<-[:IN]-(b:Belief)
RETURN b.id AS id, b.text AS text, b.kind AS kind, b.status AS status,
       b.priority AS priority, b.epistemic_status AS epistemic_status,
       b.allowed_action AS allowed_action,
       coalesce(b.verification_required, false) AS verification_required,
       vector.similarity.cosine(b.embedding, $embedding) AS similarity
ORDER BY id
