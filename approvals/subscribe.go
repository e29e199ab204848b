package approvals

import "sync"

// Subscribers: who hears that requests or grants changed.

// Subscribe returns a channel of changes and a function that ends the
// subscription. A subscriber that falls behind misses events rather than
// holding up the gateway; it should re-read Pending and Grants on each
// event anyway.
func (m *Manager) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 16)
	m.mu.Lock()
	m.subs[ch] = struct{}{}
	m.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			m.mu.Lock()
			delete(m.subs, ch)
			m.mu.Unlock()
			close(ch)
		})
	}
}

func (m *Manager) publish(e Event) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for ch := range m.subs {
		select {
		case ch <- e:
		default:
		}
	}
}
