package backup

import (
	"crypto/rand"
	_ "embed"
	"fmt"
	"math/big"
	"strings"
)

// effLarge is the EFF's large wordlist for passphrases (7,776 words, each
// after its five dice), embedded unchanged: "EFF's Long Wordlist",
// https://www.eff.org/deeplinks/2016/07/new-wordlists-random-passphrases,
// by the Electronic Frontier Foundation, licensed CC BY 3.0 US. SHA-256
// addd35536511597a02fa0a9ff1e5284677b8883b83e986e43f15a3db996b903e.
//
//go:embed eff_large_wordlist.txt
var effLarge string

// PassphraseWords is how many words NewPassphrase picks: six from 7,776
// are about 77.5 bits, beyond guessing at Argon2id's second a guess.
const PassphraseWords = 6

// NewPassphrase makes a passphrase of PassphraseWords words drawn at
// random from the EFF's large wordlist, separated by spaces: the default
// the app and the command line offer.
func NewPassphrase() (string, error) {
	list := words()
	size := big.NewInt(int64(len(list)))
	out := make([]string, PassphraseWords)
	for i := range out {
		n, err := rand.Int(rand.Reader, size)
		if err != nil {
			return "", fmt.Errorf("passphrase: %w", err)
		}
		out[i] = list[n.Int64()]
	}
	return strings.Join(out, " "), nil
}

// words reads the embedded list: "DICE\tWORD" lines.
func words() []string {
	lines := strings.Split(strings.TrimSpace(effLarge), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if _, w, ok := strings.Cut(l, "\t"); ok {
			out = append(out, w)
		}
	}
	return out
}
