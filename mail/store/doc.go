// Package store keeps the node's copy of the mailbox in one SQLite file.
//
// The file runs in WAL mode so readers (the tools, the UI) never block the
// syncer. The schema is created and upgraded by the numbered migrations in
// sql/migrations, embedded in the binary; PRAGMA user_version holds the
// schema version.
//
// Tables:
//   - accounts: one row per IMAP account.
//   - folders: one row per synced folder with its IMAP state (UIDVALIDITY,
//     UIDNEXT, HIGHESTMODSEQ) and last_uid, the watermark up to which every
//     message is stored. The state changes in the same transaction as the
//     messages it covers, so a crash at any point resumes without loss or
//     duplicates.
//   - messages: headers, flags and threading keys, one small row per
//     (folder, UID).
//   - message_content: the raw RFC 5322 bytes (so extractors can re-run
//     without downloading again), the parsed text and the text of the HTML
//     parts, S2-compressed, apart so scans of messages stay cheap.
//   - attachments: metadata of non-text parts (the bytes stay in the raw
//     message).
//   - messages_fts: a contentless FTS5 index over subject, sender and text.
//   - sender_domains: each registrable From domain's first arrival (the
//     earliest internal_date of its mail outside Junk and Trash), and
//     correspondents: the To and Cc addresses of mail in \Sent folders;
//     kept as messages are stored, read by Senders (package mail/trust
//     decides what follows from them).
//   - component_schema: the schema version of each other component (the
//     gateway, approvals) whose tables share the file; see Store.Attach.
package store
