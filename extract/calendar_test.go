package extract

import (
	"testing"

	"github.com/emersion/go-ical"
)

// TestICalDateTime: icalDateTime reads every time as go-ical does.
func TestICalDateTime(t *testing.T) {
	for _, c := range []struct{ value, tzid, valueType string }{
		{"20300512T083000", "Europe/Berlin", ""},
		{"20300512T083000", "America/New_York", "DATE-TIME"},
		{"20300512T083000Z", "Europe/Berlin", ""},
		{"20300512", "Europe/Berlin", ""},
		{"20300512", "", "DATE"},
		{"20300512T083000", "", ""},
		{"20300512T083000", "W. Europe Standard Time", ""},
		{"2030-05-12", "Europe/Berlin", ""},
	} {
		p := ical.NewProp(ical.PropDateTimeStart)
		p.Value = c.value
		if c.tzid != "" {
			p.Params.Set(ical.ParamTimezoneID, c.tzid)
		}
		if c.valueType != "" {
			p.Params.Set(ical.ParamValue, c.valueType)
		}
		got, gotErr := icalDateTime(p)
		want, wantErr := p.DateTime(nil)
		if !got.Equal(want) || got.Location().String() != want.Location().String() || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%+v: %v, %v; go-ical %v, %v", c, got, gotErr, want, wantErr)
		}
	}
}
