package main

import (
	"encoding/json"
	"fmt"
	"os"

	"mailnode/extract"
	"mailnode/mail/mime"
)

func main() {
	for _, f := range os.Args[1:] {
		raw, _ := os.ReadFile(f)
		m := mime.Parse(raw)
		if os.Getenv("TEXT") != "" {
			fmt.Println(m.Text, "\n---HTMLTEXT---\n", m.HTMLText)
		}
		r := extract.Extract(m, raw, extract.Options{})
		b, _ := json.MarshalIndent(r.Facts, "", " ")
		fmt.Println(f, string(b))
	}
}
