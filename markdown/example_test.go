package markdown_test

import (
	"fmt"

	"github.com/qsc-nlp/qsc/markdown"
)

// Doc splits a Markdown document into its title, its first heading, and the text its
// rendering shows, one paragraph per block.
func ExampleDoc() {
	src := []byte("# Runbook: failover\n\nPromote the **replica** with `pg_ctl promote`.\n\n- Check [the lag](https://example.com/lag).\n- Tell the on-call.\n")
	title, body := markdown.Doc(src)
	fmt.Printf("%q\n%s\n", title, body)
	// Output:
	// "Runbook: failover"
	// Promote the replica with pg_ctl promote.
	//
	// Check the lag.
	//
	// Tell the on-call.
}

// URL reads the address a document's front matter gives it, for a search result's link.
func ExampleURL() {
	src := []byte("---\ntitle: Refunds\npermalink: /billing/refunds/\n---\n\nWe refund within 5 days.\n")
	fmt.Println(markdown.URL(src))
	// Output: /billing/refunds/
}
