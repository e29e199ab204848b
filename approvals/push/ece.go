package push

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
)

// The message encryption of Web Push: one aes128gcm record (RFC 8188)
// under keys from an ECDH between a fresh key of the node's and the
// subscription's key, mixed with its authentication secret (RFC 8291).

// recordSize is the rs of the header: the largest record a push service
// takes in one message (RFC 8291 section 4: 4096 bytes of payload).
const recordSize = 4096

// PaddedSize is the length every push's plaintext is padded to before
// encryption (the record's content: the text, the 0x02 delimiter and
// zeros), so that the push service cannot tell a prompt's notice from a
// decided one, nor one agent's name from another, by its length. A notice
// (at most MaxNotice bytes of JSON, sealed and in base64url) fits with
// room to spare; the encrypted body is PaddedSize + 16 (the tag) + 86 (the
// header) = 2150 bytes.
const PaddedSize = 2048

// errTooLong: the text does not fit in PaddedSize.
var errTooLong = errors.New("push message too long")

// encrypt returns the aes128gcm body of text for the subscription key ua
// and its authentication secret auth (RFC 8291 section 3.4), with a fresh
// key and salt.
func encrypt(text []byte, ua *ecdh.PublicKey, auth []byte) ([]byte, error) {
	as, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	return encryptWith(text, ua, auth, as, salt, PaddedSize)
}

// encryptWith is encrypt with the node's key as, the salt and the padded
// size given (0: no padding), for RFC 8291's test vector.
func encryptWith(text []byte, ua *ecdh.PublicKey, auth []byte, as *ecdh.PrivateKey, salt []byte, padded int) ([]byte, error) {
	if padded == 0 {
		padded = len(text) + 1
	}
	if len(text)+1 > padded || padded+16 > recordSize {
		return nil, errTooLong
	}
	secret, err := as.ECDH(ua)
	if err != nil {
		return nil, err
	}
	asPub, uaPub := as.PublicKey().Bytes(), ua.Bytes()
	// RFC 8291 section 3.4: key_info = "WebPush: info" || 0x00 ||
	// ua_public || as_public; IKM = HKDF(auth, ecdh_secret, key_info, 32).
	info := append(append([]byte("WebPush: info\x00"), uaPub...), asPub...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	// RFC 8188 sections 2.2 and 2.3: the content encryption key and the
	// nonce (the first record's: sequence number 0).
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// The header (RFC 8188 section 2.1): salt, rs, idlen and keyid, which
	// RFC 8291 section 4 makes the node's public key.
	out := make([]byte, 0, 16+4+1+len(asPub)+padded+gcm.Overhead())
	out = append(out, salt...)
	out = binary.BigEndian.AppendUint32(out, recordSize)
	out = append(out, byte(len(asPub)))
	out = append(out, asPub...)
	// The one and last record: the text, the delimiter 0x02, zeros.
	content := make([]byte, padded)
	copy(content, text)
	content[len(text)] = 2
	return gcm.Seal(out, nonce, content, nil), nil
}
