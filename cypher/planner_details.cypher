// name: planner_details
// Everything the planner's decision needs about the candidates and the heads of their
// supersession chains, plus the edges it walks between them. Heads outside the requested
// namespaces are never read.
// $ids: list<string> (candidate ids); $namespaces: list<string>; $keys: list<string>;
// $embedding: list<float> (the query's, for the similarity of every row).
// Returns one row per belief (candidates, then heads not already among them):
//   belief (map, no embedding), namespaces, about (keys), governs, supersedes, superseded_by
//   (the shape of belief_get_many), names (entity names and aliases), scope_key,
//   head (id of the current head when superseded, else null), chain (ids oldest first to
//   this belief), links (its SUPERSEDES edges), overrides (ids of candidates it OVERRIDES),
//   narrows (scope keys its scope NARROWS), about_hits / scope_hits (keys of $keys it is
//   ABOUT / its scope COVERS, for the trace), similarity (cosine to the query),
//   candidate (whether it was asked for).
MATCH (space:Namespace) WHERE space.name IN $namespaces
WITH collect(space) AS spaces
UNWIND $ids AS id
MATCH (c:Belief {id: id}) WHERE EXISTS { (c)-[:IN]->(m) WHERE m IN spaces }
OPTIONAL MATCH (h:Belief)-[:SUPERSEDES*1..]->(c)
  WHERE NOT (:Belief)-[:SUPERSEDES]->(h) AND EXISTS { (h)-[:IN]->(m) WHERE m IN spaces }
WITH spaces, collect(DISTINCT c) + collect(DISTINCT h) AS found, collect(DISTINCT c.id) AS asked
UNWIND found AS b
WITH DISTINCT b, asked
OPTIONAL MATCH p = (b)-[:SUPERSEDES*1..]->(root:Belief) WHERE NOT (root)-[:SUPERSEDES]->(:Belief)
WITH b, asked, p ORDER BY length(p) DESC
WITH b, asked, head(collect(p)) AS p
RETURN b {.*, embedding: null} AS belief,
       [(b)-[:IN]->(n:Namespace) | n.name] AS namespaces,
       [(b)-[:ABOUT]->(e:Entity) | e.key] AS about,
       head([(b)-[:GOVERNS]->(s:Scope) |
             s {.any_terms, .all_terms, .excluded_terms, .action_types}]) AS governs,
       head([(b)-[:SUPERSEDES]->(o:Belief) | o.id]) AS supersedes,
       head([(n:Belief)-[:SUPERSEDES]->(b) | n.id]) AS superseded_by,
       reduce(acc = [], e IN [(b)-[:ABOUT]->(e:Entity) | [e.name] + coalesce(e.aliases, [])] |
              acc + e) AS names,
       head([(b)-[:GOVERNS]->(s:Scope) | s.key]) AS scope_key,
       head([(h:Belief)-[:SUPERSEDES*1..]->(b) WHERE NOT (:Belief)-[:SUPERSEDES]->(h) | h.id])
         AS head,
       CASE WHEN p IS NULL THEN [b.id] ELSE [x IN reverse(nodes(p)) | x.id] END AS chain,
       CASE WHEN p IS NULL THEN [] ELSE
         [r IN reverse(relationships(p)) |
          {newer: startNode(r).id, older: endNode(r).id, at: r.at, reason: r.reason, by: r.by}]
       END AS links,
       // OVERRIDES and NARROWS may not exist yet in a store; matching them by type() keeps
       // the server from warning about an unknown relationship type on every query.
       [(b)-[r]->(o:Belief) WHERE type(r) = 'OVERRIDES' AND o.id IN asked | o.id] AS overrides,
       [(b)-[:GOVERNS]->(:Scope)-[r]->(s:Scope) WHERE type(r) = 'NARROWS' | s.key] AS narrows,
       [(b)-[:ABOUT]->(e:Entity) WHERE e.key IN $keys | e.key] AS about_hits,
       [(b)-[:GOVERNS]->(:Scope)-[:COVERS]->(e:Entity) WHERE e.key IN $keys | e.key] AS scope_hits,
       vector.similarity.cosine(b.embedding, $embedding) AS similarity,
       b.id IN asked AS candidate
