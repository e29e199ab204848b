// Package mime turns the raw RFC 5322 bytes of one message into what the
// store keeps and the extractors read: decoded headers, the plain text of
// every text part, readable text from every HTML part, and metadata for the
// attachments.
//
// Mail is hostile input. Parse never fails: a part it cannot decode (an
// unknown charset or transfer encoding, a broken multipart boundary, nesting
// too deep) is recorded in Message.Problems and the rest of the message is
// still returned. HTML is tokenised, never rendered: no script runs and no
// resource is fetched.
package mime
