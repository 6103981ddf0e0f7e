// name: planner_candidates
// The query planner's discovery and graph walk in one round trip, inside the requested
// namespaces only: which beliefs are candidates and how each was found, then everything
// the decision needs about them and about the heads of their supersession chains.
//
// Discovery. Small namespaces (at most $exact_limit beliefs) are scanned from the
// namespace side, so the cost follows the namespace, never the store: the 5.26 vector
// index has no filter (a small namespace in a big store could lose every index hit to
// other namespaces), and Entity and Scope nodes are shared by all namespaces (walking out
// of them scans the whole store's edges). Every belief is scored exactly with
// vector.similarity.cosine; candidates are the $k most similar ('vector'), every belief
// ABOUT an entity the query names ('alias'), every belief whose scope COVERS one
// ('scope_walk'), and those among the 4 x $k most similar whose text holds a query word
// ('fulltext'). Large namespaces go through the indexes: the vector index and Lucene over
// belief_text, each over-fetched in proportion to the share of the store the namespaces
// hold (at most $max_fetch; the store size comes from the count store), and the entity
// walks from the Entity nodes named by $keys, matched in entity_names or by their aliases in
// the namespaces (NAMED_IN), each bounded by $k.
//
// Walk. For every candidate and every current head of its SUPERSEDES chain (heads outside
// the namespaces are never read): the belief, its namespaces among them, entities (keys,
// names and aliases), governed scope, chain (its members in the namespaces), OVERRIDES
// between candidates, NARROWS of its scope, the ABOUT / COVERS edges to entities the query
// names, its cosine to the query (kept from the exact scan), and its open contests: the live
// beliefs in the namespaces that CONTRADICT it
// (the gate's guards kept them from superseding it), and the beliefs in the namespaces it
// contradicts itself.
//
// The caller's API key. When the API recognised it from memory instead of reading it
// (api/auth.py), $key is its hash and this read confirms it is still valid, in the same round
// trip: for a key revoked (or gone) since, no belief is read (the namespaces' sizes and the
// named entities are, and never returned: the planner refuses the request on key_state,
// 'revoked' or 'unknown'; 'ok', also when $key is null).
//
// $namespaces: list<string>; $embedding: list<float> (384); $k: int; $exact_limit: int;
// $max_fetch: int; $words: string (Lucene OR query, '' for none); $terms: list<string>
// (the query's words, lower case); $keys: list<string> (entity keys the query could name);
// $key: string or null (an API key's hash, to confirm).
// Returns one row: key_state, known (namespaces that exist), size (their belief count) and
// rows, one map per belief (one record, not one per belief: each costs the driver ~20 us):
// ways (how it was found; [] for a head reached only through SUPERSEDES), similarity (its
// cosine to the query), belief (its properties but the embedding, as [key, value] pairs,
// date-times as ISO strings: the driver's temporal types cost more to decode than the rest
// of the row), namespaces, about, governs, supersedes, superseded_by (the shape of
// belief_get_many), names, scope_key, head, chain (ids, oldest first), links, overrides
// (the candidates it OVERRIDES), narrows, about_hits, scope_hits, contested_by (maps: id,
// text, kind, status, trust, edge (the CONTRADICTS edge's properties: reason, guard, by,
// at)), disputes. When nothing is found, rows is empty.
MATCH (n:Namespace) WHERE n.name IN $namespaces
// Only beliefs have IN edges, so the degree is the belief count (read in O(1)).
WITH collect(n) AS spaces, collect(n.name) AS known, sum(COUNT { (n)<-[:IN]-() }) AS size
CALL () {
  OPTIONAL MATCH (k:ApiKey {hash: $key})
  // read as a map: in a store where no key was ever revoked, k.revoked_at would have the
  // server warn, on every query, of a property key that does not exist
  RETURN CASE WHEN $key IS NULL THEN 'ok' WHEN k IS NULL THEN 'unknown'
              WHEN properties(k).revoked_at IS NOT NULL THEN 'revoked' ELSE 'ok' END
         AS key_state
}
WITH key_state, known,
     CASE WHEN key_state = 'ok' THEN spaces ELSE [] END AS spaces,
     CASE WHEN key_state = 'ok' THEN size ELSE 0 END AS size
// The entities the query names, looked up once: the walks below compare nodes, not keys.
CALL () { OPTIONAL MATCH (e:Entity) WHERE e.key IN $keys RETURN collect(e) AS named }
OPTIONAL CALL (spaces, size, named) {
  WITH spaces, size, named WHERE size <= $exact_limit
  UNWIND spaces AS space
  MATCH (space)<-[:IN]-(b:Belief)
  WITH DISTINCT b, named
  WITH b, named, vector.similarity.cosine(b.embedding, $embedding) AS score
  ORDER BY score DESC, b.id
  WITH collect({b: b, score: score}) AS ranked, named
  UNWIND range(0, size(ranked) - 1) AS rank
  WITH ranked[rank].b AS b, ranked[rank].score AS score, rank, named
  WITH b, score, [
    CASE WHEN rank < $k THEN 'vector' END,
    CASE WHEN EXISTS { (b)-[:ABOUT]->(e) WHERE e IN named } THEN 'alias' END,
    CASE WHEN EXISTS { (b)-[:GOVERNS]->(:Scope)-[:COVERS]->(e) WHERE e IN named }
         THEN 'scope_walk' END,
    CASE WHEN rank < 4 * $k AND any(t IN $terms WHERE toLower(b.text) CONTAINS t)
         THEN 'fulltext' END
  ] AS ways
  UNWIND [w IN ways WHERE w IS NOT NULL] AS via
  RETURN b, via, score
UNION
  WITH spaces, size WHERE size > $exact_limit
  CALL () { MATCH (every:Belief) RETURN count(every) AS total }
  WITH spaces, $k * ceil(toFloat(total) / size) AS wanted
  WITH spaces, toInteger(CASE WHEN wanted > $max_fetch THEN $max_fetch ELSE wanted END) AS fetch
  CALL db.index.vector.queryNodes('belief_embedding', fetch, $embedding) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b ORDER BY score DESC, b.id LIMIT $k
  // The index's own score may round differently from vector.similarity.cosine: not kept.
  RETURN b, 'vector' AS via, null AS score
UNION
  WITH spaces, size WHERE size > $exact_limit AND $words <> ''
  CALL () { MATCH (every:Belief) RETURN count(every) AS total }
  WITH spaces, $k * ceil(toFloat(total) / size) AS wanted
  WITH spaces, toInteger(CASE WHEN wanted > $max_fetch THEN $max_fetch ELSE wanted END) AS fetch
  CALL db.index.fulltext.queryNodes('belief_text', $words, {limit: fetch}) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b ORDER BY score DESC, b.id LIMIT $k
  RETURN b, 'fulltext' AS via, null AS score
UNION
  WITH spaces, size WHERE size > $exact_limit
  CALL (spaces) {
    UNWIND $keys AS key
    MATCH (e:Entity {key: key})
    RETURN e
  UNION
    WITH spaces WHERE $words <> ''
    CALL db.index.fulltext.queryNodes('entity_names', $words, {limit: $k}) YIELD node
    RETURN node AS e
  UNION
    // an alias counts only where it was given: the namespaces' own, a word of the query
    // among an alias's words
    UNWIND spaces AS space
    MATCH (space)<-[k:NAMED_IN]-(e:Entity)
    WHERE any(t IN $terms WHERE (k.aliases_text + ' ') CONTAINS (' ' + t + ' '))
    RETURN DISTINCT e LIMIT $k
  }
  CALL (e, spaces) {
    MATCH (e)<-[:ABOUT]-(b:Belief) WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'alias' AS via LIMIT $k
  UNION
    MATCH (e)<-[:COVERS]-(:Scope)<-[:GOVERNS]-(b:Belief)
    WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'scope_walk' AS via LIMIT $k
  }
  RETURN DISTINCT b, via, null AS score
}
WITH key_state, spaces, named, known, size, b, collect(DISTINCT via) AS ways, max(score) AS score
WITH key_state, spaces, named, known, size,
     collect(CASE WHEN b IS NULL THEN null ELSE {b: b, ways: ways, score: score} END) AS hits
// Only a superseded belief has a head, and only a belief that supersedes another has a
// chain behind it: the variable-length walks run for those few, not for every candidate.
OPTIONAL CALL (spaces, hits) {
  UNWIND hits AS hit
  WITH spaces, hit.b AS c
  OPTIONAL CALL (spaces, c) {
    WITH spaces, c WHERE c.status = 'superseded'
    MATCH (h:Belief)-[:SUPERSEDES*1..]->(c)
    WHERE NOT (:Belief)-[:SUPERSEDES]->(h) AND EXISTS { (h)-[:IN]->(m) WHERE m IN spaces }
    RETURN h
  }
  WITH collect(DISTINCT c) + collect(DISTINCT h) AS reached
  UNWIND reached AS b
  RETURN DISTINCT b
}
WITH key_state, spaces, named, known, size, hits, b, [hit IN hits WHERE hit.b = b][0] AS hit
OPTIONAL CALL (b) {
  WITH b WHERE EXISTS { (b)-[:SUPERSEDES]->(:Belief) }
  MATCH p = (b)-[:SUPERSEDES*1..]->(root:Belief) WHERE NOT (root)-[:SUPERSEDES]->(:Belief)
  RETURN p ORDER BY length(p) DESC LIMIT 1
}
// A head outside the namespaces is no head here: the belief is then excluded, never
// governing in its head's stead.
OPTIONAL CALL (spaces, b) {
  WITH spaces, b WHERE b.status = 'superseded'
  MATCH (h:Belief)-[:SUPERSEDES*1..]->(b)
  WHERE NOT (:Belief)-[:SUPERSEDES]->(h) AND EXISTS { (h)-[:IN]->(m) WHERE m IN spaces }
  RETURN h.id AS head LIMIT 1
}
// One read of the properties; the map is then looked up, not the node, key by key. The
// chain keeps its members in the namespaces only (and the edges between those).
WITH key_state, spaces, named, known, size, hits, b, hit, p, head, properties(b) AS props,
     CASE WHEN p IS NOT NULL
          THEN [x IN reverse(nodes(p)) WHERE EXISTS { (x)-[:IN]->(m) WHERE m IN spaces } | x.id]
     END AS shown
RETURN key_state, known, size, collect(CASE WHEN b IS NOT NULL THEN {
  ways: coalesce(hit.ways, []),
  // The exact scan scored its candidates already; the others are scored here.
  similarity: CASE WHEN hit.score IS NOT NULL THEN hit.score
                   ELSE vector.similarity.cosine(b.embedding, $embedding) END,
  belief: [key IN keys(props)
           WHERE NOT key IN ['embedding', 'embedding_f32', 'text_words', 'name_edits'] |
           [key, CASE WHEN valueType(props[key]) STARTS WITH 'ZONED DATETIME'
                      THEN toString(props[key]) ELSE props[key] END]],
  namespaces: [(b)-[:IN]->(n:Namespace) WHERE n IN spaces | n.name],
  about: [(b)-[:ABOUT]->(e:Entity) | e.key],
  governs: head([(b)-[:GOVERNS]->(s:Scope) |
                 s {.any_terms, .all_terms, .excluded_terms, .action_types}]),
  supersedes: head([(b)-[:SUPERSEDES]->(o:Belief) WHERE EXISTS { (o)-[:IN]->(m) WHERE m IN spaces }
                    | o.id]),
  superseded_by: head([(n:Belief)-[:SUPERSEDES]->(b)
                       WHERE EXISTS { (n)-[:IN]->(m) WHERE m IN spaces } | n.id]),
  // an entity's aliases in these namespaces only (NAMED_IN): a name given elsewhere decides
  // nothing here
  names: reduce(acc = [], e IN [(b)-[:ABOUT]->(e:Entity) | [e.name] + reduce(
                  own = [], given IN [(e)-[k:NAMED_IN]->(m) WHERE m IN spaces | k.aliases] |
                  own + given)] |
                acc + e),
  scope_key: head([(b)-[:GOVERNS]->(s:Scope) | s.key]),
  head: head,
  chain: coalesce(shown, [b.id]),
  links: CASE WHEN p IS NULL THEN [] ELSE
           [r IN reverse(relationships(p))
            WHERE startNode(r).id IN shown AND endNode(r).id IN shown |
            {newer: startNode(r).id, older: endNode(r).id, at: r.at, reason: r.reason, by: r.by}]
         END,
  // OVERRIDES, NARROWS and CONTRADICTS may not exist yet in a store; matching them by
  // type() keeps the server from warning about an unknown relationship type (and the
  // edge's own properties are read as a map, for the same reason) on every query.
  overrides: [(b)-[r]->(o:Belief) WHERE type(r) = 'OVERRIDES' AND any(hit IN hits WHERE hit.b = o)
              | o.id],
  narrows: [(b)-[:GOVERNS]->(:Scope)-[r]->(s:Scope) WHERE type(r) = 'NARROWS' | s.key],
  about_hits: [(b)-[:ABOUT]->(e) WHERE e IN named | e.key],
  scope_hits: [(b)-[:GOVERNS]->(:Scope)-[:COVERS]->(e) WHERE e IN named | e.key],
  contested_by: [(c:Belief)-[r]->(b) WHERE type(r) = 'CONTRADICTS'
                   AND c.status IN ['active', 'provisional', 'inferred', 'exploratory']
                   AND EXISTS { (c)-[:IN]->(m) WHERE m IN spaces }
                 | c {.id, .text, .kind, .status, .trust, edge: properties(r)}],
  disputes: [(b)-[r]->(o:Belief) WHERE type(r) = 'CONTRADICTS'
               AND EXISTS { (o)-[:IN]->(m) WHERE m IN spaces } | o.id]
} END) AS rows
