package extract_test

import (
	"testing"
	"time"
)

// TestParcelReadyForPickupDe: a shop's notice that a parcel can be
// picked up at a locker (issue 46, foreign-24's Amazon.de mail: "kann bei
// DHL abgeholt werden") is the parcel's arrival, its tracking number
// after "lautet:".
func TestParcelReadyForPickupDe(t *testing.T) {
	text := "Guten Tag Jana Weber,\nIhr Paket mit 2 Artikeln kann bei DHL abgeholt werden.\nSie erhalten den erforderlichen Abholcode in einer separaten Nachricht direkt vom Transporteur. " +
		"Ihre Tracking-Nummer lautet: JJD000390016612345678 Sie benötigen eine gültige DHL-Postnummer, um Ihr Paket von der DHL Packstation abzuholen.\nABHOLUNG BIS ZUM\nMontag, 14. Juni\nABHOLORT\nDHL\nPackstation 212\n"
	facts := mailFacts("Beispielshop <versand@beispielshop.example>", "Ihr Paket mit 2 Artikeln kann bei DHL abgeholt werden.", text, time.Date(2027, 6, 7, 9, 0, 0, 0, time.UTC))
	orders := 0
	for _, f := range facts {
		o := f.Order
		if o == nil {
			continue
		}
		orders++
		if o.Status != "delivered" {
			t.Errorf("status %q, want delivered", o.Status)
		}
		if len(o.Shipments) != 1 || o.Shipments[0].Tracking != "JJD000390016612345678" || o.Shipments[0].Carrier != "DHL" {
			t.Errorf("shipments %+v, want DHL's JJD000390016612345678", o.Shipments)
		}
	}
	if orders != 1 {
		t.Errorf("%d orders, want 1", orders)
	}
}
