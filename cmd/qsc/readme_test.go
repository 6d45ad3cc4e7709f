package main

import (
	"os"
	"strings"
	"testing"
)

// readmeExample is a `qsc compress` command of the README and the output it shows.
type readmeExample struct {
	line int // of the command in README.md
	args []string
	want string
}

// readmeExamples returns the README's `qsc compress` commands with their outputs: in a
// console block, a line "$ qsc compress …" followed by its output lines; in a sh block, a
// command "go run ./cmd/qsc compress …" (continued by "\") followed by "# " lines. An
// argument "…the same sentence…" stands for the sentence of the command before.
func readmeExamples(t *testing.T, text string) []readmeExample {
	t.Helper()
	lines := strings.Split(text, "\n")
	var out []readmeExample
	prevSentence := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		var cmd string
		start := i
		switch {
		case strings.HasPrefix(l, "$ qsc compress "):
			cmd = strings.TrimPrefix(l, "$ qsc ")
		case strings.HasPrefix(l, "go run ./cmd/qsc compress "):
			cmd = strings.TrimPrefix(l, "go run ./cmd/qsc ")
			for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(lines[i])
			}
		default:
			continue
		}
		console := strings.HasPrefix(l, "$ ")
		var want []string
		for i+1 < len(lines) {
			next := lines[i+1]
			if console && (next == "```" || strings.HasPrefix(next, "$ ")) {
				break
			}
			if !console && !strings.HasPrefix(next, "# ") {
				break
			}
			i++
			want = append(want, strings.TrimPrefix(next, "# "))
		}
		args := splitArgs(t, cmd, start+1)
		if len(args) > 0 && args[len(args)-1] == "…the same sentence…" {
			args[len(args)-1] = prevSentence
		}
		if len(args) > 0 {
			prevSentence = args[len(args)-1]
		}
		out = append(out, readmeExample{line: start + 1, args: args, want: strings.Join(want, "\n")})
	}
	return out
}

// splitArgs splits a shell command line of words and double-quoted strings (no escapes
// inside them, as the README writes them).
func splitArgs(t *testing.T, cmd string, line int) []string {
	t.Helper()
	var args []string
	var cur strings.Builder
	inQuote, inWord := false, false
	for _, r := range cmd {
		switch {
		case r == '"':
			inQuote = !inQuote
			inWord = true
		case (r == ' ' || r == '\t') && !inQuote:
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inQuote {
		t.Fatalf("README.md:%d: unbalanced quotes in %q", line, cmd)
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}

// TestREADMEExamples runs every `qsc compress` example of the README on the embedded
// models and checks that it prints what the README shows, so that the README's examples
// stay the product's outputs.
func TestREADMEExamples(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := readmeExamples(t, string(data))
	if len(examples) < 3 {
		t.Fatalf("found %d qsc compress examples in README.md, want at least 3 (has the README's format changed?)", len(examples))
	}
	for _, ex := range examples {
		code, stdout, stderr := runQSC(t, ex.args...)
		if code != 0 {
			t.Errorf("README.md:%d: qsc %s: exit %d: %s", ex.line, strings.Join(ex.args, " "), code, stderr)
			continue
		}
		if got := strings.TrimRight(stdout, "\n"); got != ex.want {
			t.Errorf("README.md:%d: qsc %s\nprints  %q\nREADME: %q", ex.line, strings.Join(ex.args, " "), got, ex.want)
		}
	}
}
