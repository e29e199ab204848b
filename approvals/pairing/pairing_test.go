package pairing

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"
	"time"
)

type device struct {
	sign *ecdsa.PrivateKey
	box  *ecdh.PrivateKey
}

func newDevice(t *testing.T) device {
	t.Helper()
	s, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return device{s, b}
}

func (d device) registration(t *testing.T, offer, name string) Registration {
	t.Helper()
	pub, err := d.sign.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return Registration{Offer: offer, SignPub: Encode(pub), BoxPub: Encode(d.box.PublicKey().Bytes()), Name: name}
}

func TestPairing(t *testing.T) {
	node, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOffer(node.PublicKey(), time.Now(), 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u := o.URL("https://node.example/phone/")
	base, got, err := ParseURL(u)
	if err != nil || base != "https://node.example/phone/" || got.ID != o.ID || !bytes.Equal(got.Secret, o.Secret) || !bytes.Equal(got.NodeBoxPub, o.NodeBoxPub) {
		t.Fatalf("ParseURL(%s) = %q, %+v, %v", u, base, got, err)
	}
	if strings.Contains(strings.Split(u, "#")[0], Encode(o.Secret)) {
		t.Fatal("the secret is outside the fragment")
	}

	phone := newDevice(t)
	reg := phone.registration(t, o.ID, "Pixel")
	reg.Sign(got.Secret)
	if _, _, err := reg.Verify(o); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	// Whoever lacks the secret, or changes any field, is refused.
	attacker := newDevice(t)
	for name, r := range map[string]Registration{
		"no secret":       func() Registration { r := attacker.registration(t, o.ID, "Pixel"); r.Sign(make([]byte, 32)); return r }(),
		"swapped key":     func() Registration { r := reg; r.SignPub = attacker.registration(t, o.ID, "").SignPub; return r }(),
		"renamed":         func() Registration { r := reg; r.Name = "Evil"; return r }(),
		"other offer":     func() Registration { r := reg; r.Offer = "x"; return r }(),
		"mac not base64":  func() Registration { r := reg; r.MAC = "!!"; return r }(),
		"key not a point": func() Registration { r := reg; r.BoxPub = Encode([]byte{4, 1, 2}); r.Sign(o.Secret); return r }(),
	} {
		if _, _, err := r.Verify(o); err == nil {
			t.Errorf("%s: registration accepted", name)
		}
	}

	// Both screens agree on the code; another phone's differs.
	sas := SAS(o.Secret, o.NodeBoxPub, reg.SignPub, reg.BoxPub)
	if len(sas) != 7 || sas != SAS(got.Secret, got.NodeBoxPub, reg.SignPub, reg.BoxPub) {
		t.Errorf("SAS = %q", sas)
	}
	other := attacker.registration(t, o.ID, "Pixel")
	if SAS(o.Secret, o.NodeBoxPub, other.SignPub, other.BoxPub) == sas {
		t.Error("two devices got the same code")
	}
	if _, _, err := ParseURL("https://node.example/phone/#pair=a.b"); err == nil {
		t.Error("ParseURL accepted a short fragment")
	}
}

func TestSeal(t *testing.T) {
	node, _ := ecdh.P256().GenerateKey(rand.Reader)
	phone := newDevice(t)
	msg := []byte(`{"approval_id":"a_1","tool":"send_draft"}`)
	sealed, err := Seal(node, phone.box.PublicKey(), "dev1", ToPhone, []byte("req-nonce"), msg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Open(phone.box, node.PublicKey(), "dev1", ToPhone, []byte("req-nonce"), sealed)
	if err != nil || !bytes.Equal(out, msg) {
		t.Fatalf("Open = %q, %v", out, err)
	}
	other := newDevice(t)
	flipped := bytes.Clone(sealed)
	flipped[len(flipped)-1] ^= 1
	for name, try := range map[string]func() ([]byte, error){
		"another device": func() ([]byte, error) {
			return Open(other.box, node.PublicKey(), "dev1", ToPhone, []byte("req-nonce"), sealed)
		},
		"another device id": func() ([]byte, error) {
			return Open(phone.box, node.PublicKey(), "dev2", ToPhone, []byte("req-nonce"), sealed)
		},
		"reflected": func() ([]byte, error) {
			return Open(phone.box, node.PublicKey(), "dev1", ToNode, []byte("req-nonce"), sealed)
		},
		"other request": func() ([]byte, error) {
			return Open(phone.box, node.PublicKey(), "dev1", ToPhone, []byte("old-nonce"), sealed)
		},
		"tampered": func() ([]byte, error) {
			return Open(phone.box, node.PublicKey(), "dev1", ToPhone, []byte("req-nonce"), flipped)
		},
		"short": func() ([]byte, error) { return Open(phone.box, node.PublicKey(), "dev1", ToPhone, nil, sealed[:5]) },
	} {
		if _, err := try(); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

func TestDecisionSignature(t *testing.T) {
	phone := newDevice(t)
	hash := bytes.Repeat([]byte{7}, 32)
	msg := DecisionMessage("a_1", "approve", hash, "dev1")
	sig, err := SignP1363(phone.sign, msg)
	if err != nil {
		t.Fatal(err)
	}
	if !VerifySig(&phone.sign.PublicKey, msg, sig) {
		t.Fatal("own signature refused")
	}
	other := newDevice(t)
	for name, ok := range map[string]bool{
		"unpaired key":   VerifySig(&other.sign.PublicKey, msg, sig),
		"other decision": VerifySig(&phone.sign.PublicKey, DecisionMessage("a_1", "deny", hash, "dev1"), sig),
		"other prompt":   VerifySig(&phone.sign.PublicKey, DecisionMessage("a_1", "approve", make([]byte, 32), "dev1"), sig),
		"other approval": VerifySig(&phone.sign.PublicKey, DecisionMessage("a_2", "approve", hash, "dev1"), sig),
		"garbage":        VerifySig(&phone.sign.PublicKey, msg, "AAAA"),
	} {
		if ok {
			t.Errorf("%s: signature accepted", name)
		}
	}
}

func FuzzParseURL(f *testing.F) {
	node, _ := ecdh.P256().GenerateKey(rand.Reader)
	o, _ := NewOffer(node.PublicKey(), time.Now(), time.Minute)
	f.Add(o.URL("https://node.example/phone/"))
	f.Add("https://x/#pair=..")
	f.Fuzz(func(t *testing.T, s string) {
		base, got, err := ParseURL(s)
		if err == nil && (len(got.Secret) != 32 || strings.Contains(base, "#")) {
			t.Fatalf("ParseURL(%q) = %q, %+v", s, base, got)
		}
	})
}
