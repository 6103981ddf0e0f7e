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
// ('scope_walk'), and the more similar ones whose text holds a query word ('fulltext').
// Large namespaces go through the indexes: the vector index and Lucene over belief_text,
// each over-fetched in proportion to the share of the store the namespaces hold (at most
// $max_fetch; the store size comes from the count store), and the entity walks from the
// Entity nodes named by $keys or matched in entity_names, each bounded by $k.
//
// Walk. For every candidate and every current head of its SUPERSEDES chain (heads outside
// the namespaces are never read): the belief, its namespaces, entities (keys, names and
// aliases), governed scope, chain, OVERRIDES between candidates, NARROWS of its scope, the
// ABOUT / COVERS edges to entities the query names, its cosine to the query, and its open
// contests: the live beliefs in the namespaces that CONTRADICT it (the gate's guards kept
// them from superseding it), and the beliefs in the namespaces it contradicts itself.
//
// $namespaces: list<string>; $embedding: list<float> (384); $k: int; $exact_limit: int;
// $max_fetch: int; $words: string (Lucene OR query, '' for none); $terms: list<string>
// (the query's words, lower case); $keys: list<string> (entity keys the query could name).
// Returns one row per belief: known (namespaces that exist), size (their belief count),
// ways (how it was found; [] for a head reached only through SUPERSEDES), belief (map, no
// embedding), namespaces, about, governs, supersedes, superseded_by (the shape of
// belief_get_many), names, scope_key, head, chain (ids, oldest first), links, overrides,
// narrows, about_hits, scope_hits, similarity, candidate, contested_by (maps: id, text,
// kind, status, trust, author, reason, guard, by, at), disputes. When nothing is found: one row
// with known and size and a null belief.
MATCH (n:Namespace) WHERE n.name IN $namespaces
// Only beliefs have IN edges, so the degree is the belief count (read in O(1)).
WITH collect(n) AS spaces, collect(n.name) AS known, sum(COUNT { (n)<-[:IN]-() }) AS size
OPTIONAL CALL (spaces, size) {
  WITH spaces, size WHERE size <= $exact_limit
  UNWIND spaces AS space
  MATCH (space)<-[:IN]-(b:Belief)
  WITH DISTINCT b
  WITH b, vector.similarity.cosine(b.embedding, $embedding) AS score
  ORDER BY score DESC, b.id
  WITH collect({b: b, score: score}) AS ranked
  UNWIND range(0, size(ranked) - 1) AS rank
  WITH ranked[rank].b AS b, rank
  WITH b, [
    CASE WHEN rank < $k THEN 'vector' END,
    CASE WHEN EXISTS { (b)-[:ABOUT]->(e:Entity) WHERE e.key IN $keys } THEN 'alias' END,
    CASE WHEN EXISTS { (b)-[:GOVERNS]->(:Scope)-[:COVERS]->(e:Entity) WHERE e.key IN $keys }
         THEN 'scope_walk' END,
    CASE WHEN rank < 4 * $k AND any(t IN $terms WHERE toLower(b.text) CONTAINS t)
         THEN 'fulltext' END
  ] AS ways
  UNWIND [w IN ways WHERE w IS NOT NULL] AS via
  RETURN b, via
UNION
  WITH spaces, size WHERE size > $exact_limit
  CALL () { MATCH (every:Belief) RETURN count(every) AS total }
  WITH spaces, $k * ceil(toFloat(total) / size) AS wanted
  WITH spaces, toInteger(CASE WHEN wanted > $max_fetch THEN $max_fetch ELSE wanted END) AS fetch
  CALL db.index.vector.queryNodes('belief_embedding', fetch, $embedding) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b ORDER BY score DESC, b.id LIMIT $k
  RETURN b, 'vector' AS via
UNION
  WITH spaces, size WHERE size > $exact_limit AND $words <> ''
  CALL () { MATCH (every:Belief) RETURN count(every) AS total }
  WITH spaces, $k * ceil(toFloat(total) / size) AS wanted
  WITH spaces, toInteger(CASE WHEN wanted > $max_fetch THEN $max_fetch ELSE wanted END) AS fetch
  CALL db.index.fulltext.queryNodes('belief_text', $words, {limit: fetch}) YIELD node, score
  WITH node AS b, score, spaces WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
  WITH b ORDER BY score DESC, b.id LIMIT $k
  RETURN b, 'fulltext' AS via
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
  }
  CALL (e, spaces) {
    MATCH (e)<-[:ABOUT]-(b:Belief) WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'alias' AS via LIMIT $k
  UNION
    MATCH (e)<-[:COVERS]-(:Scope)<-[:GOVERNS]-(b:Belief)
    WHERE EXISTS { (b)-[:IN]->(m) WHERE m IN spaces }
    RETURN b, 'scope_walk' AS via LIMIT $k
  }
  RETURN DISTINCT b, via
}
WITH spaces, known, size, b, collect(DISTINCT via) AS ways
WITH spaces, known, size,
     collect(CASE WHEN b IS NULL THEN null ELSE {b: b, ways: ways} END) AS hits
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
WITH spaces, known, size, hits, b, [hit IN hits WHERE hit.b = b | hit.ways][0] AS ways
OPTIONAL CALL (b) {
  WITH b WHERE EXISTS { (b)-[:SUPERSEDES]->(:Belief) }
  MATCH p = (b)-[:SUPERSEDES*1..]->(root:Belief) WHERE NOT (root)-[:SUPERSEDES]->(:Belief)
  RETURN p ORDER BY length(p) DESC LIMIT 1
}
OPTIONAL CALL (b) {
  WITH b WHERE b.status = 'superseded'
  MATCH (h:Belief)-[:SUPERSEDES*1..]->(b) WHERE NOT (:Belief)-[:SUPERSEDES]->(h)
  RETURN h.id AS head LIMIT 1
}
RETURN known, size, coalesce(ways, []) AS ways,
       b {.*, embedding: null} AS belief,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e.key] AS about,
       head([(b)-[:GOVERNS]->(s:Scope) |
             s {.any_terms, .all_terms, .excluded_terms, .action_types}]) AS governs,
       head([(b)-[:SUPERSEDES]->(o:Belief) | o.id]) AS supersedes,
       head([(n:Belief)-[:SUPERSEDES]->(b) | n.id]) AS superseded_by,
       reduce(acc = [], e IN [(b)-[:ABOUT]->(e:Entity) | [e.name] + coalesce(e.aliases, [])] |
              acc + e) AS names,
       head([(b)-[:GOVERNS]->(s:Scope) | s.key]) AS scope_key,
       head,
       CASE WHEN p IS NULL THEN [b.id] ELSE [x IN reverse(nodes(p)) | x.id] END AS chain,
       CASE WHEN p IS NULL THEN [] ELSE
         [r IN reverse(relationships(p)) |
          {newer: startNode(r).id, older: endNode(r).id, at: r.at, reason: r.reason, by: r.by}]
       END AS links,
       // OVERRIDES and NARROWS may not exist yet in a store; matching them by type() keeps
       // the server from warning about an unknown relationship type on every query.
       [(b)-[r]->(o:Belief) WHERE type(r) = 'OVERRIDES' AND any(hit IN hits WHERE hit.b = o)
        | o.id] AS overrides,
       [(b)-[:GOVERNS]->(:Scope)-[r]->(s:Scope) WHERE type(r) = 'NARROWS' | s.key] AS narrows,
       [(b)-[:ABOUT]->(e:Entity) WHERE e.key IN $keys | e.key] AS about_hits,
       [(b)-[:GOVERNS]->(:Scope)-[:COVERS]->(e:Entity) WHERE e.key IN $keys | e.key] AS scope_hits,
       vector.similarity.cosine(b.embedding, $embedding) AS similarity,
       any(hit IN hits WHERE hit.b = b) AS candidate,
       // CONTRADICTS is matched by type() like OVERRIDES: a store may hold no contest yet.
       [(c:Belief)-[r]->(b) WHERE type(r) = 'CONTRADICTS'
          AND c.status IN ['active', 'provisional', 'inferred', 'exploratory']
          AND EXISTS { (c)-[:IN]->(m) WHERE m IN spaces }
        | c {.id, .text, .kind, .status, .trust, .author,
             reason: r.reason, guard: r.guard, by: r.by, at: r.at}] AS contested_by,
       [(b)-[r]->(o:Belief) WHERE type(r) = 'CONTRADICTS'
          AND EXISTS { (o)-[:IN]->(m) WHERE m IN spaces } | o.id] AS disputes
