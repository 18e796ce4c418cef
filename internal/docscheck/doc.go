// Package docscheck holds the test that keeps README.md, reports/README.md
// and the hand-written pages of docs/ honest: every make target and make
// variable they name is the Makefile's, every relative link reaches a file
// (and a heading, for a link into a page), and every repository path they
// write in backticks exists. It has no code of its own.
package docscheck
