package htmltext_test

import (
	"fmt"

	"github.com/qsc-nlp/qsc/htmltext"
)

// Doc reads a help-center page as a browser shows its article: its title, then each
// block a paragraph, without the menu, the footer, the script or the image's alt text,
// and without the heading that repeats the title; a table's row reads with its
// columns' labels.
func ExampleDoc() {
	src := []byte(`<!DOCTYPE html>
<html><head><title>Runbook: failover</title><script>track()</script></head>
<body>
  <nav><a href="/">Home</a> · <a href="/runbooks">Runbooks</a></nav>
  <main>
    <h1>Runbook: failover</h1>
    <p>Promote the <b>replica</b> with
       <code>pg_ctl promote</code>&nbsp;&amp; check <a href="/lag">the lag</a>.</p>
    <ul><li>Tell the on-call.<img src="pager.png" alt="a pager"></li><li>Open an incident.</li></ul>
    <table><tr><th>Step</th><th>Owner</th></tr><tr><td>Promote</td><td>DBA</td></tr></table>
  </main>
  <footer>© 2026 Example Inc.</footer>
</body></html>`)
	title, body := htmltext.Doc(src)
	fmt.Printf("%q\n%s\n", title, body)
	// Output:
	// "Runbook: failover"
	// Promote the replica with pg_ctl promote & check the lag.
	//
	// Tell the on-call.
	//
	// Open an incident.
	//
	// Step: Promote · Owner: DBA
}

// URL reads the address a saved page gives as its own, for a search result's link.
func ExampleURL() {
	src := []byte(`<html><head><title>Refunds</title><link rel="canonical" href="https://help.example.com/billing/refunds"></head><body><p>We refund within 5 days.</p></body></html>`)
	fmt.Println(htmltext.URL(src))
	// Output: https://help.example.com/billing/refunds
}
