// name: entity_aliases_per_namespace
// Moves the aliases that a store from before they were kept per namespace holds on Entity
// nodes onto NAMED_IN edges: to every namespace of the beliefs about the entity, since which
// namespace gave which alias was not recorded. Nothing is lost; the node's copy is removed.
// $limit: int (entities per transaction).
// Returns: moved (the entities done; 0 when none is left).
MATCH (e:Entity)
// read as a map: a store where no entity ever had aliases would warn of an unknown key
WHERE properties(e).aliases IS NOT NULL
WITH e LIMIT $limit
CALL (e) {
  WITH e WHERE size(e.aliases) > 0
  MATCH (e)<-[:ABOUT]-(:Belief)-[:IN]->(n:Namespace)
  WITH DISTINCT e, n
  MERGE (e)-[k:NAMED_IN]->(n)
    ON CREATE SET k.aliases = []
  WITH e, k, reduce(acc = k.aliases, a IN e.aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END)
               AS aliases
  SET k.aliases = aliases, k.aliases_text = toLower(reduce(s = '', a IN aliases | s + ' ' + a))
}
REMOVE e.aliases, e.aliases_text
RETURN count(e) AS moved
