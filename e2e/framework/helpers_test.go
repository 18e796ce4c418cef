package framework

import (
	"go/ast"
	"go/types"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"
)

// asserting names the dot-imported Ginkgo and Gomega calls that fail the
// running spec. A framework function that makes one, or calls a framework
// function that does (however deep), must start with GinkgoHelper(): Ginkgo
// skips only the frames of functions marked so, and a failure must point
// at the spec's line, not at the framework's.
var asserting = map[string]bool{
	"Expect": true, "ExpectWithOffset": true, "Eventually": true, "EventuallyWithOffset": true,
	"Consistently": true, "ConsistentlyWithOffset": true, "Fail": true, "Ω": true,
}

func TestEveryAssertingHelperIsAGinkgoHelper(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load the package: %v", pkgs)
	}
	pkg := pkgs[0]
	type helper struct {
		decl   *ast.FuncDecl
		marked bool          // starts with GinkgoHelper()
		why    string        // the first asserting call it makes itself
		calls  []*types.Func // the functions of this package it calls
	}
	helpers := map[*types.Func]*helper{}
	for _, file := range pkg.Syntax {
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			obj, _ := pkg.TypesInfo.Defs[fn.Name].(*types.Func)
			if obj == nil {
				continue
			}
			h := &helper{decl: fn, marked: startsWithGinkgoHelper(fn.Body), why: firstAssertion(fn.Body)}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
				}
				if id == nil {
					return true
				}
				if callee, ok := pkg.TypesInfo.Uses[id].(*types.Func); ok && callee.Pkg() == pkg.Types {
					h.calls = append(h.calls, callee.Origin())
				}
				return true
			})
			helpers[obj] = h
		}
	}
	// A function asserts when it asserts itself or calls one that does:
	// iterate to the fixed point.
	for changed := true; changed; {
		changed = false
		for _, h := range helpers {
			if h.why != "" {
				continue
			}
			for _, c := range h.calls {
				if callee := helpers[c]; callee != nil && callee.why != "" {
					h.why, changed = c.Name()+" (which asserts)", true
					break
				}
			}
		}
	}
	var problems []string
	for obj, h := range helpers {
		if h.why != "" && !h.marked {
			problems = append(problems, pkg.Fset.Position(h.decl.Body.Lbrace).String()+": "+obj.Name()+" calls "+h.why+": start it with GinkgoHelper()")
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
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
