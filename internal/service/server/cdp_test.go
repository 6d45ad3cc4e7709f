package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// browser drives a headless Chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ended by NUL, Chromium reading fd 3 and
// writing fd 4), so that the test needs no WebSocket client and no dependency.
type browser struct {
	cmd    *exec.Cmd
	w      *os.File
	stderr *bytes.Buffer

	mu      sync.Mutex
	next    int
	pending map[int]chan cdpMessage
	done    chan struct{} // closed when the pipe from Chromium ends
	err     error
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    any             `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
}

// chromiumFlags are the flags the machine notes give for headless Chromium here: no
// sandbox (root), no GPU, and no background traffic to Google's hosts.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-dev-shm-usage", "--disable-extensions", "--mute-audio", "--window-size=1200,900"}

// findChromium returns the Chromium binary: $QSC_CHROMIUM, or chromium on the PATH.
func findChromium() (string, error) {
	if p := os.Getenv("QSC_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on the PATH and QSC_CHROMIUM unset")
}

// startBrowser starts Chromium with a fresh profile, or skips the test when there is
// none.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	path, err := findChromium()
	if err != nil {
		t.Skipf("skipping the browser test: %v (install Debian's chromium package; .ci/run does)", err)
	}
	toR, toW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string(nil), chromiumFlags...), "--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", "about:blank")
	cmd := exec.Command(path, args...)
	cmd.ExtraFiles = []*os.File{toR, fromW} // fd 3: Chromium reads; fd 4: Chromium writes
	b := &browser{cmd: cmd, w: toW, stderr: &bytes.Buffer{}, pending: map[int]chan cdpMessage{}, done: make(chan struct{})}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	toR.Close()
	fromW.Close()
	go b.read(fromR)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.call(ctx, "", "Browser.close", nil, nil)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		toW.Close()
		if t.Failed() {
			t.Logf("chromium stderr:\n%s", b.stderr)
		}
	})
	return b
}

// read dispatches the answers from Chromium to the waiting calls; events are dropped.
func (b *browser) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	var err error
	for {
		var msg []byte
		msg, err = br.ReadBytes(0)
		if err != nil {
			break
		}
		var m cdpMessage
		if err = json.Unmarshal(msg[:len(msg)-1], &m); err != nil {
			break
		}
		if m.ID == 0 {
			continue // an event
		}
		b.mu.Lock()
		ch := b.pending[m.ID]
		delete(b.pending, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
	b.mu.Lock()
	b.err = fmt.Errorf("the pipe from chromium ended: %v", err)
	b.mu.Unlock()
	close(b.done)
}

// call sends a command (to the page of session, or to the browser when session is "")
// and decodes its result into result.
func (b *browser) call(ctx context.Context, session, method string, params, result any) error {
	b.mu.Lock()
	if b.err != nil {
		err := b.err
		b.mu.Unlock()
		return err
	}
	b.next++
	id := b.next
	ch := make(chan cdpMessage, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(cdpMessage{ID: id, Method: method, Params: params, SessionID: session})
	if err != nil {
		return err
	}
	if _, err := b.w.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: %w", method, b.err)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// tab is one page of the browser.
type tab struct {
	b       *browser
	session string
}

// open opens url in a new tab.
func (b *browser) open(ctx context.Context, url string) (*tab, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": url}, &target); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	return &tab{b: b, session: att.SessionID}, nil
}

// eval evaluates a JavaScript expression in the page and decodes its value into v.
func (p *tab) eval(ctx context.Context, expr string, v any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if err != nil {
		return err
	}
	if res.Exception != nil {
		return fmt.Errorf("evaluating %q: %s %s", expr, res.Exception.Text, res.Exception.Exception.Description)
	}
	if v != nil {
		return json.Unmarshal(res.Result.Value, v)
	}
	return nil
}

// waitFor polls a boolean JavaScript expression until it is true.
func (p *tab) waitFor(ctx context.Context, expr string) error {
	for {
		var ok bool
		if err := p.eval(ctx, expr, &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", expr, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// keys of the DevTools Input domain that are not text.
var keyCodes = map[string]int{"Enter": 13, "Tab": 9, "ArrowLeft": 37, "ArrowRight": 39, " ": 32}

// press presses and releases a key, as a user's keyboard does: a printable character
// types itself; "Enter", "Tab", "ArrowLeft"… are named keys.
func (p *tab) press(ctx context.Context, key string) error {
	down := map[string]any{"type": "keyDown", "key": key}
	code := key
	switch key {
	case "Enter":
		down["text"] = "\r"
	case " ":
		down["text"] = " "
		code = "Space"
	case "Tab", "ArrowLeft", "ArrowRight":
		down["type"] = "rawKeyDown"
	default:
		down["text"] = key
		code = ""
	}
	if vk, ok := keyCodes[key]; ok {
		down["windowsVirtualKeyCode"] = vk
		down["nativeVirtualKeyCode"] = vk
	}
	if code != "" {
		down["code"] = code
	}
	if err := p.b.call(ctx, p.session, "Input.dispatchKeyEvent", down, nil); err != nil {
		return err
	}
	up := map[string]any{"type": "keyUp", "key": key}
	if code != "" {
		up["code"] = code
	}
	if vk, ok := keyCodes[key]; ok {
		up["windowsVirtualKeyCode"] = vk
		up["nativeVirtualKeyCode"] = vk
	}
	return p.b.call(ctx, p.session, "Input.dispatchKeyEvent", up, nil)
}

// typeText types s one character at a time.
func (p *tab) typeText(ctx context.Context, s string) error {
	for _, r := range s {
		if err := p.press(ctx, string(r)); err != nil {
			return err
		}
	}
	return nil
}
