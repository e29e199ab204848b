package words

// Categories is several phrase lists found in one pass: which of them a
// text holds, as Set.Any of each list would tell, for a reader that asks
// four or five lists of the same lines in turn (a bill's paid, failed,
// minimum and paid-label phrases), where each Any was a scan of its own.
type Categories struct {
	set  *Set
	mask []uint32 // the lists a phrase of the set is in
	all  uint32
}

// NewCategories builds the lists' set; list i is bit 1<<i of In's
// result. At most 32 lists.
func NewCategories(lists ...[]string) *Categories {
	if len(lists) > 32 {
		panic("words: more than 32 lists")
	}
	c := &Categories{all: uint32(1)<<len(lists) - 1}
	var phrases []string
	at := map[string]int{}
	for i, list := range lists {
		for _, p := range list {
			// A phrase in two lists is one phrase of the set, in both:
			// the set reports one index per text.
			k, ok := at[p]
			if !ok {
				k = len(phrases)
				at[p] = k
				phrases = append(phrases, p)
				c.mask = append(c.mask, 0)
			}
			c.mask[k] |= 1 << i
		}
	}
	c.set = NewSet(phrases)
	return c
}

// In is the set of lists of which text holds a phrase: bit i for list i.
// It stops reading once every list is found.
func (c *Categories) In(text string) uint32 {
	var found uint32
	c.set.EachAt(text, func(p, _ int) bool {
		found |= c.mask[p]
		return found != c.all
	})
	return found
}
