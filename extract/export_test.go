package extract

// ValidIBAN is validIBAN, for the tests outside the package.
var ValidIBAN = validIBAN

// Provenance is provenance, for the test over the evaluation corpus.
var Provenance = provenance

// ProvenanceRaw is provenanceRaw, for the same test over the facts of mails attached whole.
var ProvenanceRaw = provenanceRaw

// TermsPaid is termsPaid, for the tests outside the package.
var TermsPaid = termsPaid

// TicketLineHead is ticketLineHead, for the tests outside the package.
var TicketLineHead = ticketLineHead

// ProcessCPU is processCPU, for the time-bounded tests outside the package.
var ProcessCPU = processCPU
