// name: belief_create
// Creates beliefs, each linked to its namespaces, the entities it is about and the scope
// it governs; namespaces, entities and scopes are MERGEd on their keys, never duplicated.
// An entity's aliases are kept per namespace, on its NAMED_IN edge to each namespace of the
// beliefs that gave them.
// $rows: list of {
//   props: map of Belief properties (without embedding; created_at and updated_at may be
//          left out, then they are $now),
//   embedding: list<float> (384),
//   embedding_f32: bytes (the same vector as little-endian float32: beliefgraph/embeddings.py),
//   namespaces: list<string>,
//   about: list<{key, name, aliases}>,
//   scope: {key, any_terms, all_terms, excluded_terms, action_types,
//           terms: list<{key, name, mode}>} or null }
// $now: datetime (see props).
// Returns nothing.
UNWIND $rows AS row
CREATE (b:Belief)
SET b = row.props
SET b.created_at = coalesce(b.created_at, $now), b.updated_at = coalesce(b.updated_at, $now),
    b.embedding_f32 = row.embedding_f32
// display labels for Neo4j Browser's style (cypher/browser/style.grass), derived from the
// properties and never queried on
SET b:$(CASE WHEN b.kind IN ['policy', 'credential', 'correction', 'decision']
             THEN ['Authority'] ELSE [] END)
SET b:$(CASE WHEN b.status = 'archived' THEN ['Archived'] ELSE [] END)
WITH b, row
CALL db.create.setNodeVectorProperty(b, 'embedding', row.embedding)
CALL (b, row) {
  UNWIND row.namespaces AS ns
  MERGE (n:Namespace {name: ns})
  CREATE (b)-[:IN]->(n)
}
CALL (b, row) {
  UNWIND row.about AS e
  MERGE (en:Entity {key: e.key})
    ON CREATE SET en.name = e.name
  MERGE (b)-[:ABOUT]->(en)
  // the aliases are the namespaces' own: a name given in one never decides in another
  WITH row, en, e WHERE size(e.aliases) > 0
  UNWIND row.namespaces AS ns
  MATCH (n:Namespace {name: ns})
  MERGE (en)-[k:NAMED_IN]->(n)
    ON CREATE SET k.aliases = []
  WITH k, reduce(acc = k.aliases, a IN e.aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END)
            AS aliases
  SET k.aliases = aliases, k.aliases_text = toLower(reduce(s = '', a IN aliases | s + ' ' + a))
}
CALL (b, row) {
  WITH row.scope AS s
  WHERE s IS NOT NULL
  MERGE (sc:Scope {key: s.key})
    ON CREATE SET sc.any_terms = s.any_terms, sc.all_terms = s.all_terms,
                  sc.excluded_terms = s.excluded_terms, sc.action_types = s.action_types
  CREATE (b)-[:GOVERNS]->(sc)
  WITH sc, s
  UNWIND s.terms AS t
  MERGE (te:Entity {key: t.key})
    ON CREATE SET te.name = t.name
  MERGE (sc)-[:COVERS {mode: t.mode}]->(te)
}
