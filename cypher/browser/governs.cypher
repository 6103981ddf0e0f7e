// What governs an entity: beliefs about it, the scopes that cover it and who replaced whom
// Set the entity key first: :param entity => 'office_wifi'
MATCH (e:Entity {key: $entity})
OPTIONAL MATCH about = (:Belief)-[:ABOUT]->(e)
OPTIONAL MATCH governs = (:Belief)-[:GOVERNS]->(:Scope)-[:COVERS]->(e)
OPTIONAL MATCH replaced = (:Belief)-[:SUPERSEDES|CONTRADICTS]->(:Belief)-[:ABOUT]->(e)
RETURN e, collect(DISTINCT about) AS about, collect(DISTINCT governs) AS governs,
       collect(DISTINCT replaced) AS replaced
