-- The node's key for registered client ids: a registration is stored
-- nowhere, its client id carries what was registered and this key's MAC
-- over it (registration.go). Made at the first registration or look-up.
CREATE TABLE oauth_registration_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB NOT NULL
);
