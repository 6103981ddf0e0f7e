// name: index_properties
// The properties an index covers, to tell an index made by an earlier schema from today's.
// $index: string (the index name).
// Returns: properties (list<string>); no row when there is no such index.
SHOW INDEXES YIELD name, properties
WHERE name = $index
RETURN properties
