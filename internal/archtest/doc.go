// Package archtest holds the module's dependency rules in one place: the
// layering, the wire packages, the agent SDK's and the relay's
// independence from the node, names and test-only packages, as
// docs/architecture.md ("Dependency rules") states them. It has no code
// of its own; its test loads the module's import graph with `go list
// -deps -json`, for each platform and build the project ships, and fails
// naming the import chain that breaks a rule.
//
// The rules live here rather than beside one of the packages they hold
// (they were in the agent SDK's tests) so that a reader finds all of them,
// each with its reason, in one table.
package archtest
