package signin

// ClampDevice is clampDevice, for the tests.
var ClampDevice = clampDevice
