package clocale

import "testing"

func TestNormalize(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want map[string]string
	}{
		{map[string]string{"LANG": "C.UTF-8"}, map[string]string{"LANG": "C"}},
		{map[string]string{"LANG": "de_DE.UTF-8"}, map[string]string{"LANG": "de_DE.UTF-8"}},
		{map[string]string{"LC_ALL": "POSIX.utf8", "LANG": "C.UTF-8"}, map[string]string{"LC_ALL": "C", "LANG": "C.UTF-8"}},
		// The first set decides, as for go-locale: LANG is not read.
		{map[string]string{"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "C.UTF-8"}, map[string]string{"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "C.UTF-8"}},
		{map[string]string{}, map[string]string{}},
	} {
		env := map[string]string{}
		for k, v := range tt.env {
			env[k] = v
		}
		normalize(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		for k, v := range tt.want {
			if env[k] != v {
				t.Errorf("%v: %s = %q, want %q", tt.env, k, env[k], v)
			}
		}
	}
}
