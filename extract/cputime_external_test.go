package extract_test

import "mailnode/extract"

// processCPU is the package's own (cputime_*_test.go), for its bounded
// tests here.
var processCPU = extract.ProcessCPU
