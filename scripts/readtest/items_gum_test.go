package main

import "testing"

// TestHeldOut checks that of UD_English-GUM only the dev split may be read.
func TestHeldOut(t *testing.T) {
	for path, ok := range map[string]bool{
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-test.conllu.gz":  false,
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz": false,
		"../shared/data/ud-english/UD_English-GUM/en_gum-ud-dev.conllu.gz":   true,
		"../shared/data/ud-english/UD_English-EWT/en_ewt-ud-test.conllu":     true,
	} {
		if err := heldOut(path); (err == nil) != ok {
			t.Errorf("heldOut(%q) = %v, want allowed %v", path, err, ok)
		}
	}
}
