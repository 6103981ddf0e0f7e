// name: namespace_list
// Every namespace (of $allowed) and how many beliefs it holds.
// $allowed: list<string>, the namespaces the caller may see (each looked up by its name), or
//   null for every one.
// Returns: name, beliefs.
CALL () {
  WITH 1 AS go WHERE $allowed IS NULL
  MATCH (n:Namespace)
  RETURN n
  UNION
  UNWIND $allowed AS name
  MATCH (n:Namespace {name: name})
  RETURN n
}
RETURN n.name AS name, COUNT { (n)<-[:IN]-(:Belief) } AS beliefs
ORDER BY name
