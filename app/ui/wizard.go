package ui

// OpenWizard opens the first-run wizard.
func (u *UI) OpenWizard() {}
