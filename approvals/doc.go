// Package approvals holds phone pairing, the approval state machine and the
// phone channel, exposed as Request/Decide/Subscribe rather than HTTP
// handlers. It is built in issues 3 and 5.
package approvals
