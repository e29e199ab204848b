package fcb

import (
	"bytes"
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// bitsOf packs a string of '0' and '1' (spaces ignored) into octets,
// the last one filled with zeros.
func bitsOf(s string) []byte {
	var out []byte
	n := 0
	for _, c := range s {
		if c != '0' && c != '1' {
			continue
		}
		if n%8 == 0 {
			out = append(out, 0)
		}
		if c == '1' {
			out[n/8] |= 0x80 >> (n % 8)
		}
		n++
	}
	return out
}

// TestPrimitives reads X.691's encodings of single values.
func TestPrimitives(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    *typ
		bits string
		want any
	}{
		{"INTEGER (-1..370) lowest", integer(-1, 370), "000000000", int64(-1)},
		{"INTEGER (-1..370) 24", integer(-1, 370), "000011001", int64(24)},
		{"INTEGER (1..1) takes no bits", integer(1, 1), "", int64(1)},
		{"INTEGER unconstrained -1", tInt, "00000001 11111111", int64(-1)},
		{"INTEGER unconstrained 256", tInt, "00000010 00000001 00000000", int64(256)},
		{"BOOLEAN", tBool, "1", true},
		{"ENUMERATED (8, ...) second", enumerated(8, true), "0 010", 2},
		{"ENUMERATED (8, ...) a later value", enumerated(8, true), "1 0001000", -1},
		{"IA5String", tIA5, "00000010 1001001 1000011", "IC"},
		{"IA5String (SIZE(3))", ia5Size(3, 3), "1000101 1010101 1010010", "EUR"},
		{"IA5String (SIZE(1..2))", ia5Size(1, 2), "0 1000001", "A"},
		{"UTF8String", tUTF8, "00000010 11000011 10110110", "ö"},
		{"SEQUENCE OF INTEGER (0..3)", seqOf(integer(0, 3)), "00000011 01 10 11", []any{int64(1), int64(2), int64(3)}},
		{"length of two octets", tOctets, "10000000 00000001 10101010", []byte{0xaa}},
		// SEQUENCE {a INTEGER (0..7) OPTIONAL, b BOOLEAN, ...} with an
		// addition of a later version present: skipped as an open type.
		{"SEQUENCE with an addition", seqType(true, opt("a", integer(0, 7)), req("b", tBool)),
			"1 1 101 1 0000000 1 00000001 10101010", seq{"a": int64(5), "b": true}},
		{"SEQUENCE, DEFAULT absent", seqType(false, opt("a", integer(0, 7)), req("b", tBool)), "0 0", seq{"b": false}},
		{"CHOICE second", choiceType(true, alternative("x", tBool), alternative("y", integer(0, 3))), "0 1 10", alt{name: "y", v: int64(2)}},
		{"CHOICE of a later version", choiceType(true, alternative("x", tBool)), "1 0000011 00000001 11111111", alt{}},
	} {
		r := &reader{b: bitsOf(tc.bits)}
		got, err := r.value(tc.t, 0)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, want %#v", tc.name, got, tc.want)
		}
		if r.left() >= 8 {
			t.Errorf("%s: %d bits left", tc.name, r.left())
		}
	}
}

// TestHostile: lengths and counts beyond the data, fragments, values
// above a range, and nesting beyond the cap are errors, not allocations
// or loops.
func TestHostile(t *testing.T) {
	via := &typ{}
	*via = *seqType(false, opt("route", seqOf(via)))
	for _, tc := range []struct {
		name string
		t    *typ
		bits string
	}{
		{"a count beyond the data", seqOf(tBool), "01111111"},
		{"a length beyond the data", tUTF8, "01111111 00000000"},
		{"a fragmented length", tOctets, "11000001"},
		{"an integer of nine octets", tInt, "00001001 11111111"},
		{"above the range", integer(0, 4), "111"},
		{"a choice's alternative not transcribed", choiceType(false, alternative("x", tBool), alternative("car", nil)), "1"},
		{"nested beyond the cap", via, "1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001 1 00000001"},
		{"empty", tBool, ""},
	} {
		r := &reader{b: bitsOf(tc.bits)}
		if v, err := r.value(tc.t, 0); err == nil {
			t.Errorf("%s: read %#v", tc.name, v)
		}
	}
}

// flexData reads the U_FLEX record of a ticket in ../testdata without
// package uic918 (which imports this one): the container's body is
// found by its "U_FLEX" id after inflating.
func flexData(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sig := 50
	if b[4] == '2' {
		sig = 64
	}
	head := 5 + 4 + 5 + sig
	n, _ := strconv.Atoi(string(b[head : head+4]))
	z, err := zlib.NewReader(bytes.NewReader(b[head+4 : head+4+n]))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(z)
	for len(body) >= 12 {
		l, _ := strconv.Atoi(string(body[8:12]))
		if string(body[:6]) == "U_FLEX" {
			return body[12:l]
		}
		body = body[l:]
	}
	t.Fatalf("%s: no U_FLEX", name)
	return nil
}
