// name: belief_list_sizes
// What a listing would read: the beliefs held by the namespaces $names (a belief in two of
// them counted twice; from the nodes' degrees, without reading the beliefs) and in the store
// (from the count store). Store.list_beliefs picks belief_list or belief_list_in by them.
// $names: list<string>.
// Returns one row: held, total.
OPTIONAL MATCH (n:Namespace)
WHERE n.name IN $names
WITH sum(COUNT { (n)<-[:IN]-() }) AS held
RETURN held, COUNT { MATCH (:Belief) } AS total
