package framework

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// asserting names the dot-imported Ginkgo and Gomega calls that fail the
// running spec. A framework function that makes one must start with
// GinkgoHelper(), so that the failure points at the spec's line, not at
// the framework's.
var asserting = map[string]bool{
	"Expect": true, "ExpectWithOffset": true, "Eventually": true, "EventuallyWithOffset": true,
	"Consistently": true, "ConsistentlyWithOffset": true, "Fail": true, "Ω": true,
}

func TestEveryAssertingHelperIsAGinkgoHelper(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			call := firstAssertion(fn.Body)
			if call == "" || startsWithGinkgoHelper(fn.Body) {
				continue
			}
			t.Errorf("%s: %s calls %s: start it with GinkgoHelper()", fset.Position(fn.Body.Lbrace), fn.Name.Name, call)
		}
	}
}

// firstAssertion is the first bare asserting call in body, closures
// included (a polled closure's g.Expect is a method call: it reports
// through its Eventually).
func firstAssertion(body *ast.BlockStmt) string {
	var found string
	ast.Inspect(body, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && asserting[id.Name] {
				found = id.Name
			}
		}
		return true
	})
	return found
}

func startsWithGinkgoHelper(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	stmt, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && id.Name == "GinkgoHelper"
}
