package extract

import "testing"

func TestTrackingCarrier(t *testing.T) {
	tests := []struct {
		in      string
		carrier string
		valid   bool
	}{
		{"1Z999AA10123456784", "UPS", true},
		{"1Z999AA10123456785", "UPS", false},
		{"TBA123456789012", "Amazon Logistics", true},
		{"RR123456785DE", "Deutsche Post", true},
		{"RR123456784DE", "Deutsche Post", false},
		{"9400111899223100012345", "USPS", mod10Check31("9400111899223100012345")},
		{"00340434161094015902", "DHL", true},
		{"00340434161094015903", "DHL", false},
		{"123456789012", "FedEx", fedexCheck("123456789012")},
		{"1234567890", "DHL", dhlCheck("1234567890")},
		{"hello", "", false},
	}
	for _, tt := range tests {
		c, ok := trackingCarrier(tt.in)
		if c != tt.carrier || ok != tt.valid {
			t.Errorf("trackingCarrier(%q) = %q, %v, want %q, %v", tt.in, c, ok, tt.carrier, tt.valid)
		}
	}
	// FedEx's sandbox tracking number; 123456789 mod 7 = 1.
	for _, ok := range []bool{fedexCheck("797806677146"), dhlCheck("1234567891"), !dhlCheck("1234567896")} {
		if !ok {
			t.Error("a known check digit was judged wrong")
		}
	}
}

func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in   string
		want wallTime
		ok   bool
	}{
		{"2027-03-04T20:15:00-08:00", wallTime{y: 2027, mo: 3, d: 4, h: 20, mi: 15, hasOffset: true, offset: -8 * 3600}, true},
		{"2017-06-15T14:00:00+0:00", wallTime{y: 2017, mo: 6, d: 15, h: 14, hasOffset: true}, true},
		{"2017-06-15T14:00", wallTime{y: 2017, mo: 6, d: 15, h: 14}, true},
		{"2017-06-15", wallTime{y: 2017, mo: 6, d: 15, dateOnly: true}, true},
		{"02-04-2018 20:40", wallTime{y: 2018, mo: 2, d: 4, h: 20, mi: 40}, true},
		{"15.06.2017 12:55", wallTime{y: 2017, mo: 6, d: 15, h: 12, mi: 55}, true},
		{"2017-06-15T14:00:00.000Z", wallTime{y: 2017, mo: 6, d: 15, h: 14, hasOffset: true}, true},
		{"2017-13-15", wallTime{}, false},
		{"soon", wallTime{}, false},
	}
	for _, tt := range tests {
		got, ok := parseDateTime(tt.in)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("parseDateTime(%q) = %+v, %v, want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNormaliseAmount(t *testing.T) {
	for in, want := range map[string]string{
		"1.234,50": "1234.50", "1,234.50": "1234.50", "12.5": "12.50", "129,95": "129.95",
		"0.99": "0.99", "1 180,00": "1180.00", "2490": "2490.00", "€ 12": "12.00",
	} {
		if got, ok := normaliseAmount(in); !ok || got != want {
			t.Errorf("normaliseAmount(%q) = %q, %v, want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "abc", "12a"} {
		if got, ok := normaliseAmount(bad); ok {
			t.Errorf("normaliseAmount(%q) = %q, want failure", bad, got)
		}
	}
}

// TestTrackingCarrierBeforeColon: a shop system prints the carrier's name
// between the tracking number's label and its colon, in the shop's
// language; the number is read past it and the carrier is the named one,
// whatever carrier's check a number of digits passes by chance.
func TestTrackingCarrierBeforeColon(t *testing.T) {
	for _, tt := range []struct{ text, tracking, carrier string }{
		{"Numéro de suivi Colissimo : 6A24417760931\n", "6A24417760931", "Colissimo"},
		{"Número de seguimiento de Correos Express: 3230012345678901\n", "3230012345678901", "Correos Express"},
		{"Seurantatunnus Posti: JJFI64500120004471203\n", "JJFI64500120004471203", "Posti"},
		{"Sporingsnummer GLS: 66120447735\n", "66120447735", "GLS"},
		{"Número de rastreio DPD: 09445012345678\n", "09445012345678", "DPD"},
		// No colon after the name: not read this way.
		{"Tracking number GLS 66120447735 will follow\n", "", ""},
	} {
		c := &msgContext{}
		tracking, _ := c.trackingNumber(tt.text)
		carrier := c.namedCarrier(tt.text)
		if tracking != tt.tracking || carrier != tt.carrier {
			t.Errorf("%q: tracking %q, carrier %q; want %q, %q", tt.text, tracking, carrier, tt.tracking, tt.carrier)
		}
	}
}
