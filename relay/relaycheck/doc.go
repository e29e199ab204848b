// Package relaycheck checks a relay's deployment from the machine it runs
// on (`mailnode-relay check`, docs/relay-deploy.md): what a deployer gets
// wrong and the relay cannot see from inside, each check said in plain
// words with a hint.
//
// Where things are:
//
//	check.go       Config, Result, Run: the checks in order
//	delegation.go  the zone's delegation at its parent and the answer at the public address
//	listeners.go   the relay's own TLS port (certificate, agent API) and DNS, UDP and TCP
//	acme.go        the ACME directory nodes obtain their certificates from
//	smtp.go        the submission server: connect, EHLO, TLS, AUTH (no mail is sent)
//
// Every network address goes through Config.Dialer, so the tests run the
// checks against a real relay, a real parent zone's DNS server and a real
// submission server on loopback.
package relaycheck
