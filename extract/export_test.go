package extract

// ValidIBAN is validIBAN, for the tests outside the package.
var ValidIBAN = validIBAN
