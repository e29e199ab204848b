//go:build !linux

package lanaddr

// defaultRouteInterface is unknown here: Choose then takes the
// interfaces in the system's order.
func defaultRouteInterface() string { return "" }
