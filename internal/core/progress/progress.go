// Package progress shows the progress of long work on stderr. It stays quiet when stderr
// is not a terminal or when the environment variable CI is "true".
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Enabled reports whether progress is shown: stderr is a terminal and CI is not "true".
func Enabled() bool {
	if os.Getenv("CI") == "true" {
		return false
	}
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Bar reports the progress of one task. A nil *Bar is valid and does nothing. It is safe
// for concurrent use.
type Bar struct {
	mu     sync.Mutex
	w      io.Writer
	label  string
	total  int64
	done   int64
	start  time.Time
	last   time.Time
	closed bool
}

// New starts a progress report for a task of total units (0 when unknown). It returns nil
// when progress is disabled.
func New(label string, total int) *Bar {
	if !Enabled() {
		return nil
	}
	return NewTo(os.Stderr, label, total)
}

// NewTo is like New but always writes to w; tests use it.
func NewTo(w io.Writer, label string, total int) *Bar {
	now := time.Now()
	return &Bar{w: w, label: label, total: int64(total), start: now}
}

// Add records n more units of work done.
func (b *Bar) Add(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += int64(n)
	if now := time.Now(); now.Sub(b.last) >= 200*time.Millisecond {
		b.last = now
		b.draw(now)
	}
}

func (b *Bar) draw(now time.Time) {
	el := now.Sub(b.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(b.done) / el
	}
	if b.total > 0 {
		pct := 100 * float64(b.done) / float64(b.total)
		eta := ""
		if rate > 0 && b.done < b.total {
			eta = fmt.Sprintf(" eta %s", (time.Duration(float64(b.total-b.done)/rate) * time.Second).Round(time.Second))
		}
		fmt.Fprintf(b.w, "\r%s: %d/%d (%.1f%%) %.0f/s%s   ", b.label, b.done, b.total, pct, rate, eta)
	} else {
		fmt.Fprintf(b.w, "\r%s: %d %.0f/s   ", b.label, b.done, rate)
	}
}

// Done ends the report with a final line.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	b.draw(time.Now())
	fmt.Fprintf(b.w, "done in %s\n", time.Since(b.start).Round(time.Millisecond))
}

// Logf prints a status line on stderr when progress is enabled.
func Logf(format string, args ...any) {
	if Enabled() {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}
