// Package fcb reads UIC 918.9's Flexible Content Barcode (FCB): the
// record U_FLEX of a UIC 918.3 ticket, in which DB and other railways
// state a ticket since 2022 instead of (or beside) its printed layout.
// The record is UicRailTicketData of UIC's ASN.1 modules, encoded with
// the unaligned Packed Encoding Rules (ITU-T X.691): no tags, so every
// presence bit, extension bit, integer's width and length must be read
// exactly as the schema of the record's version says, or all that
// follows is wrong.
//
// Decode reads versions 1.3, 2.0 and 3.0 (U_FLEX versions "13", "02"
// and "03"), whose schemas are transcribed here, and only a record that
// it reads to its last octet: another version, an alternative of a later
// version, or a value that ends early or leaves data gives nothing.
// Of what it reads it keeps the journey: the issuing day (every other
// day counts from it), the issuer's booking (issuerPNR), and each open
// ticket's or reservation's stations, day, clock and train, and a
// reservation's arrival.
//
// Payloads come from mail: every read is bounded by the bits there,
// counts by what remains and a cap, nesting by a depth.
package fcb
