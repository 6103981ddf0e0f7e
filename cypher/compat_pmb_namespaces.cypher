// name: compat_pmb_namespaces
// The compat namespaces of one harness user.
// $home: the user's namespace prefix, ending in '.' (e.g. 'tenant:pmb-test-user.').
// Returns: name.
MATCH (n:Namespace)
WHERE n.name STARTS WITH $home
RETURN n.name AS name
ORDER BY name
