// name: namespace_list
// Every namespace and how many beliefs it holds.
// Returns: name, beliefs.
MATCH (n:Namespace)
RETURN n.name AS name, COUNT { (n)<-[:IN]-(:Belief) } AS beliefs
ORDER BY name
