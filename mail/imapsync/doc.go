// Package imapsync keeps the store an exact copy of an IMAP account
// (RFC 9051, with CONDSTORE from RFC 7162 when the server has it).
//
// One pass over a folder:
//
//  1. EXAMINE it. A changed UIDVALIDITY voids every stored UID, so the
//     folder is reset and fetched again (RFC 9051 section 2.3.1.1).
//  2. Fetch the messages above the folder's last_uid watermark, in batches.
//     Parsing runs beside the network read, and each batch is committed in
//     one transaction together with the new watermark, so an interrupted
//     pass resumes where its last commit ended: nothing lost, nothing
//     fetched twice.
//  3. Bring flags of older messages up to date: with CONDSTORE only those
//     changed since the stored HIGHESTMODSEQ (FETCH CHANGEDSINCE), without
//     it by fetching every flag and comparing.
//  4. Find expunged messages. go-imap has no QRESYNC, so the server's UIDs
//     up to the watermark come from UID SEARCH and the difference with the
//     stored UIDs is removed.
//  5. Record UIDNEXT and HIGHESTMODSEQ as seen in step 1. A later pass that
//     sees the same values, and the same message count, has nothing to do.
//
// Run keeps the copy current: IDLE on INBOX, or on the first synced folder
// if INBOX is not synced (NOOP polling where the server
// has no IDLE), a full pass over every folder now and then, and reconnects
// with capped, jittered exponential back-off.
package imapsync
