// Package internal holds no code. Its three groups of packages are not API and are named
// for their role. Core is the bottom; service and lab stand on it, side by side, and
// never import each other:
//
//   - core: what the library's own packages are built from (tokens, matching, scripts,
//     features, model files, the parse pipeline, display helpers, the JSON conventions
//     that annotation/batch and the service share). A core package imports
//     the standard library, third-party modules, the public packages below the root (such
//     as syntax and tokenize) and other core packages; never the root package qsc, a
//     service or a lab package.
//   - service: what the qsc binary's long-running modes run (the HTTP server, the document
//     index and its files, the demo collection, the wire format). A service package may
//     import the root package, the public packages and core; never lab.
//   - lab: training data, evaluation and reports, which the lab's commands (cmd/qsc-lab),
//     qsc bench (the test tuples and their latency; never the figures of lab/report) and
//     tests use. A lab package may import the root package, the public packages and core;
//     never service.
//
// A test file may also import what a lab package may, such as lab/shared, which finds the
// data directory. TestLayout checks these directions on every build of the tests. The
// public packages link neither service nor lab packages (TestPublicLinksNoService,
// TestProductLinksNoLab); the commands and scripts may.
package internal
