// Package extract reads facts from one stored message (flights, trains,
// hotel stays, orders and bills) with pure functions, and merges facts
// from many messages into trips, orders and bills (Merge) so that the
// result does not depend on the order mail arrived in.
//
// Sources, most trusted first: schema.org JSON-LD and microdata in the
// HTML, iCalendar attachments, then anchored text rules. Whether markup is
// believed depends on the sender's authentication (mail/msgauth): the user's
// provider's Authentication-Results, or the node's own DKIM check through
// an injected DNS lookup. Decisions and the JSON fields: docs/extract.md.
//
// The package never imports gateway or app; extract/facts stores what it
// returns.
package extract
