package extract_test

import (
	"cmp"
	"strings"
	"testing"
	"time"
)

// Classes of mail the outside set foreign-31 found (issue 46,
// 2026-12-03), proved here with other senders and words than the mails
// that showed them.

// TestForeign31Orders: orders of foreign-31 that gave nothing or less.
//   - "Bestellnr." over the number: the short form without its hyphen.
//   - A step bar of a shop's order page whose steps only blank lines
//     part ("Bestellt", "Versendet", "In Zustellung", "Zugestellt") is
//     no state of the order's; the mail's thanks for the order are.
//   - A delivery's notice whose subject numbers the order ("Eine
//     Lieferung aus der Bestellung #2766 wurde zugestellt") over a
//     sentence of the goods with no digit.
func TestForeign31Orders(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"Bestellnr. and a bar of blank-parted steps", "Gartenwelt <bestellung@gartenwelt.example.de>", "Bestellt: „Rasenschere“",
			"Meine Bestellungen\n\n    Vielen Dank für deine Bestellung!\nBestellt\n\nVersendet\n\nIn Zustellung\n\nZugestellt\n\nZustellung: Montag\n\nBestellnr.\n118-5520931\n",
			"Gartenwelt | 118-5520931 | ordered |"},
		{"the subject numbers the order", "Hofladen Berg <store+5512@t.shopmail.example.com>", "Eine Lieferung aus der Bestellung #4410 wurde zugestellt",
			"Ihre Sendung mit Bergkäse (mild) und Bauernbrot wurde zugestellt.\n", "Hofladen Berg | 4410 | delivered |"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := orderLineOf(mailFacts(tt.from, tt.subject, tt.text, sent)); got != tt.want {
				t.Errorf("order %q, want %q", got, tt.want)
			}
		})
	}
}

// TestForeign31Flights: printed itineraries of foreign-31 that gave no
// flight, each a class.
//   - A stop's label before its city and the city's terminal, desk or a
//     clock in the 24-hour form "1615hr" after it ("DEPARTING Sydney
//     Virgin Blue - T2 1615hr (4:15pm), Fri 11 Apr 2008"): the city is
//     the stop.
//   - The booking's code that the subject names and the printout prints
//     alone on a line, with no label.
//   - A clock written "0130 H" before its 12-hour form ("0130 H
//     (1:30AM)"), then the airport by its name.
func TestForeign31Flights(t *testing.T) {
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"labelled stops with their terminals", "Southern Skies <itinerary@southernskies.example.com.au>", "Southern Skies Tax Invoice and Travel Plan - QW4TZA",
			"Southern Skies Tax Invoice and Travel Plan\n\nQW4TZA\n\nReservation Number: Reservation Date:\n\n02 Mar 2027\n\n.QW4TZA\n\n" +
				"TRAVEL PLAN MELBOURNE TO BRISBANE Flight No JQ711 (Starter Fare*) Note:\n\nDEPARTING Melbourne Jetstar - T4 0710hr (7:10am), Mon 03 May 2027\n\nLFMELBNE711\n\n" +
				"ARRIVING Brisbane Domestic Terminal 0835hr (8:35am), Mon 03 May 2027\n\nAll times noted above are local times.\n",
			"JQ 711 MEL-BNE 2027-05-03T07:10+10:00 QW4TZA"},
		{"a clock written 0130 H", "Tigris Air <itinerary@tigrisair.example.ph>", "Itinerary Receipt",
			"Itinerary Receipt\n\nBOOKING REFERENCE NUMBER:\n\nKX5D2M\n\nFlight Details\n\nRoute Airline Flight # Departure Arrival\n\nManila to Cebu\n\nDG 6204\n\n" +
				"Thursday 06 May 2027 , 0640 H (6:40AM) Ninoy Aquino International Airport Terminal 4\n\nThursday 06 May 2027 , 0805 H (8:05AM)Mactan Cebu International Airport\n",
			"DG 6204 MNL-CEB 2027-05-06T06:40+08:00 KX5D2M"},
		{"an Indonesian ticket's row", "Sky Nusantara <reservation@skynusantara.example.co.id>", "Sky Nusantara E-Ticket Itinerary KRTPWZ",
			"SKY NUSANTARA E - TICKET ITINERARY\n\nBooking Code\n\nAgent Name\n:\n\n:\nKRTPWZ\nMITRA TOUR\nIssued Date : 01-MAR-27\nKRTPWZ\nItinerary\n\n" +
				"Flight Detail 1\nDep/ Arr Airport/City Date Time Flight Number Class Baggage\n\nDeparture Surabaya (SUB) 12-MAR-27 08.15 WIB 8B-321 Y 20 Kg\n\n\nArrival Makassar (UPG) 12-MAR-27 10.20 WITA\n\nValid Until : 13-MAR-27\n",
			"8B 321 SUB-UPG 2027-03-12T08:15+07:00 KRTPWZ"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; s != nil && s.Type == "flight" && s.From != nil && s.To != nil && s.Depart != nil {
					got = append(got, s.Number+" "+s.From.Code+"-"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Reservation)
				}
				if s := f.Segment; s != nil && s.Type == "hotel" {
					got = append(got, "hotel "+s.Hotel)
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("flights %q, want [%s]", got, tt.want)
			}
		})
	}
}

// TestChineseBookingSentences: Chinese booking notices that write a
// journey or a stay in one sentence, each a class: 12306's purchase
// ("订单E…，…您已购3月8日D2205次列车5车08F号，杭州东站14:20开"), an
// agency's flight ("您已预订3月9日MU5137航班，上海虹桥T2 07:00起飞，09:15到达
// 北京首都T2"), an agency's hotel ("您已成功预订西湖国宾馆…，3月9日入住，
// 3月11日离店").
func TestChineseBookingSentences(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"rail purchase", "中国铁路12306 <12306@rails.com.cn>", "网上购票系统-用户支付通知",
			"【铁路12306】订单E987654321，李华您已购3月8日D2205次列车5车08F号，杭州东站14:20开。请提前换取纸质车票。",
			"train D2205 杭州东站 2027-03-08T14:20+08:00 E987654321"},
		{"an agency's flight", "旅行社 <noreply@lvxing.example.cn>", "机票预订成功",
			"【旅行社】您已预订3月9日MU5137航班，上海虹桥T2 07:00起飞，09:15到达北京首都T2，乘机人李华，订单号5512093311，如需改签请联系客服。",
			"flight MU 5137 SHA-PEK 2027-03-09T07:00+08:00 5512093311"},
		{"an agency's hotel", "旅行社 <noreply@lvxing.example.cn>", "酒店预订成功",
			"【旅行社】您已成功预订杭州西湖国宾馆豪华双床房1间2晚，3月9日入住，3月11日离店，订单号5512093312，退订请在App内处理。",
			"hotel 杭州西湖国宾馆 2027-03-09 2027-03-11 5512093312"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				s := f.Segment
				switch {
				case s == nil:
					got = append(got, f.Kind)
				case s.Type == "hotel" && s.CheckIn != nil && s.CheckOut != nil:
					got = append(got, "hotel "+s.Hotel+" "+s.CheckIn.Format("2006-01-02")+" "+s.CheckOut.Format("2006-01-02")+" "+s.Reservation)
				case s.From != nil && s.Depart != nil:
					got = append(got, s.Type+" "+s.Number+" "+cmp.Or(s.From.Code, s.From.Name)+"-"+func() string {
						if s.To == nil {
							return ""
						}
						return s.To.Code
					}()+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Reservation)
				}
			}
			if len(got) != 1 || strings.ReplaceAll(got[0], "- ", " ") != tt.want {
				t.Errorf("facts %q, want [%s]", got, tt.want)
			}
		})
	}
}
