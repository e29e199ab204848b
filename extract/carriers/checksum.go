package carriers

import "strings"

// holds checks a serial number's check digit by the format's algorithm
// (data/CHECKSUM_ALGORITHMS: tracking_number_data's reference).
func (c *checksum) holds(serial, check string) bool {
	if serial == "" || check == "" {
		return false
	}
	switch c.Name {
	case "mod10":
		return mod10(serial, c) == check
	case "mod7":
		r := 0
		for _, d := range serial {
			if d < '0' || d > '9' {
				return false
			}
			r = (r*10 + int(d-'0')) % 7
		}
		return digit(r) == check
	case "s10":
		w := []int{8, 6, 4, 2, 3, 5, 9, 7}
		if len(serial) != len(w) {
			return false
		}
		total := 0
		for i, d := range serial {
			total += int(d-'0') * w[i]
		}
		var v int
		switch r := total % 11; r {
		case 1:
			v = 0
		case 0:
			v = 5
		default:
			v = 11 - r
		}
		return digit(v) == check
	case "sum_product_with_weightings_and_modulo":
		if len(serial) > len(c.Weightings) || c.Modulo1 == 0 || c.Modulo2 == 0 {
			return false
		}
		total := 0
		for i, d := range serial {
			total += int(d-'0') * c.Weightings[i]
		}
		return digit(total%c.Modulo1%c.Modulo2) == check
	case "luhn":
		total := 0
		for i := 0; i < len(serial); i++ {
			d := int(serial[len(serial)-1-i] - '0')
			if i%2 == 0 {
				d *= 2
				if d > 9 {
					d -= 9
				}
			}
			total += d
		}
		return digit((10-total%10)%10) == check
	case "mod_37_36":
		return mod3736(serial) == check
	}
	return false
}

func digit(v int) string { return string(rune('0' + v)) }

// mod10 is the weighted sum of tracking_number_data: letters count as
// (code - 3) mod 10; odd positions (0-based) times odds_multiplier, even
// ones times evens_multiplier.
func mod10(serial string, c *checksum) string {
	chars := []rune(serial)
	if c.Reverse {
		for i, j := 0, len(chars)-1; i < j; i, j = i+1, j-1 {
			chars[i], chars[j] = chars[j], chars[i]
		}
	}
	total := 0
	for i, ch := range chars {
		var x int
		if ch >= '0' && ch <= '9' {
			x = int(ch - '0')
		} else {
			x = (int(ch) - 3) % 10
		}
		switch {
		case c.OddsMultiplier != 0 && i%2 == 1:
			x *= c.OddsMultiplier
		case c.EvensMultiplier != 0 && i%2 == 0:
			x *= c.EvensMultiplier
		}
		total += x
	}
	check := total % 10
	if check != 0 {
		check = 10 - check
	}
	return digit(check)
}

// mod3736 is ISO 7064 MOD 37,36, as DPD's parcel label specification
// computes it.
func mod3736(serial string) string {
	const mod = 36
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	cd := mod
	for _, ch := range serial {
		v := strings.IndexRune(alphabet, ch)
		if v < 0 {
			return ""
		}
		cd += v
		if cd > mod {
			cd -= mod
		}
		cd *= 2
		if cd > mod {
			cd -= mod + 1
		}
	}
	cd = mod + 1 - cd
	if cd == mod {
		cd = 0
	}
	return string(alphabet[cd])
}
