// Package extract turns stored messages into facts (trips, orders, bills)
// with pure functions, reading through a small interface of its own. It
// never imports gateway or app. It is built in issue 4; the store already
// keeps the raw bytes it will re-read.
package extract
