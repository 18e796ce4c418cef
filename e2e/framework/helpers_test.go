package framework

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"
)

// asserting names the dot-imported Ginkgo and Gomega calls that fail the
// running spec. A helper of the framework or of the specs' package that
// makes one, or calls a helper of either that does (however deep), must
// start with GinkgoHelper(): Ginkgo skips only the frames of functions
// marked so, and a failure must point at the spec's line, not at a
// helper's.
var asserting = map[string]bool{
	"Expect": true, "ExpectWithOffset": true, "Eventually": true, "EventuallyWithOffset": true,
	"Consistently": true, "ConsistentlyWithOffset": true, "Fail": true, "Ω": true,
}

// ginkgoNodes are Ginkgo's calls whose function arguments are nodes of
// their own (a spec's body, a table's, a set-up's), run by Ginkgo: their
// assertions are their own lines', so they are no helpers, and the
// function that declares them does not assert for them.
var ginkgoNodes = map[string]bool{
	"Describe": true, "Context": true, "When": true, "It": true, "Specify": true,
	"DescribeTable": true, "DescribeTableSubtree": true, "Entry": true,
	"BeforeEach": true, "AfterEach": true, "JustBeforeEach": true, "JustAfterEach": true, "BeforeAll": true, "AfterAll": true,
	"BeforeSuite": true, "AfterSuite": true, "SynchronizedBeforeSuite": true, "SynchronizedAfterSuite": true,
	"ReportBeforeEach": true, "ReportAfterEach": true, "ReportBeforeSuite": true, "ReportAfterSuite": true,
}

const ginkgoPath = "github.com/onsi/ginkgo/v2"

// helperPackages are linted together, so that a spec helper calling an
// asserting framework function is found too.
var helperPackages = []string{".", "../conformance"}

// helper is a function declaration, or a function literal given a name
// (x := func...), which is a helper of its own.
type helper struct {
	name   string
	pos    token.Position
	marked bool           // starts with GinkgoHelper()
	why    string         // the first asserting call it makes itself
	calls  []types.Object // the helpers it calls (a *types.Func, or the variable of a named literal)
}

func TestEveryAssertingHelperIsAGinkgoHelper(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}, helperPackages...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != len(helperPackages) {
		t.Fatalf("load %v: got %d packages", helperPackages, len(pkgs))
	}
	// Keyed by full name (a function) or position (a named literal): the
	// framework's functions as the specs' package sees them are other
	// types.Object values than its own.
	key := func(o types.Object) string {
		if f, ok := o.(*types.Func); ok {
			return f.Origin().FullName()
		}
		return fmt.Sprintf("%s@%d", o.Name(), o.Pos())
	}
	helpers := map[string]*helper{}
	for _, pkg := range pkgs {
		if len(pkg.Errors) > 0 {
			t.Fatalf("load %s: %v", pkg.PkgPath, pkg.Errors)
		}
		l := &linter{pkg: pkg, add: func(o types.Object, h *helper) { helpers[key(o)] = h }}
		for _, file := range pkg.Syntax {
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				if obj, _ := pkg.TypesInfo.Defs[fn.Name].(*types.Func); obj != nil {
					l.add(obj, l.unit(fn.Name.Name, fn.Body))
				}
			}
		}
	}
	// A helper asserts when it asserts itself or calls one that does:
	// iterate to the fixed point.
	for changed := true; changed; {
		changed = false
		for _, h := range helpers {
			if h.why != "" {
				continue
			}
			for _, c := range h.calls {
				if callee := helpers[key(c)]; callee != nil && callee.why != "" {
					h.why, changed = c.Name()+" (which asserts)", true
					break
				}
			}
		}
	}
	var problems []string
	for _, h := range helpers {
		if h.why != "" && !h.marked {
			problems = append(problems, h.pos.String()+": "+h.name+" calls "+h.why+": start it with GinkgoHelper()")
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

type linter struct {
	pkg *packages.Package
	add func(types.Object, *helper)
}

// unit is the helper whose body is body: the calls it makes itself,
// closures it runs included (a polled closure's g.Expect is a method
// call: it reports through its Eventually), but not a Ginkgo node's body
// nor a named literal, each linted on its own.
func (l *linter) unit(name string, body *ast.BlockStmt) *helper {
	h := &helper{name: name, pos: l.pkg.Fset.Position(body.Lbrace), marked: startsWithGinkgoHelper(body)}
	l.walk(body, h)
	return h
}

// walk records in h (nil: in a Ginkgo node, no helper's) the calls under n.
func (l *linter) walk(n ast.Node, h *helper) {
	info := l.pkg.TypesInfo
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if lit, ok := rhs.(*ast.FuncLit); ok && len(n.Lhs) == len(n.Rhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok && l.named(id, lit) {
						continue
					}
				}
				l.walk(rhs, h)
			}
			for _, lhs := range n.Lhs {
				l.walk(lhs, h)
			}
			return false
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if lit, ok := v.(*ast.FuncLit); ok && len(n.Names) == len(n.Values) && l.named(n.Names[i], lit) {
					continue
				}
				l.walk(v, h)
			}
			return false
		case *ast.CallExpr:
			callee := calledObject(info, n)
			f, _ := callee.(*types.Func)
			fromGinkgo := f != nil && f.Pkg() != nil && f.Pkg().Path() == ginkgoPath
			if fromGinkgo && ginkgoNodes[f.Name()] {
				// A node's arguments (its body, a table entry's parameters)
				// run inside the node, not in the function declaring it.
				for _, arg := range n.Args {
					l.walk(arg, nil)
				}
				return false
			}
			if h != nil {
				if id, ok := n.Fun.(*ast.Ident); ok && asserting[id.Name] && h.why == "" {
					h.why = id.Name
				}
				if callee != nil {
					h.calls = append(h.calls, callee)
				}
			}
			// A function literal handed to a call is the callee's to run,
			// now or later (a polled closure, a report callback): linted
			// where it is named, not as the caller's; but a cleanup a
			// helper defers is the helper's.
			l.walk(n.Fun, h)
			for _, arg := range n.Args {
				if _, lit := arg.(*ast.FuncLit); lit && !(fromGinkgo && f.Name() == "DeferCleanup") {
					l.walk(arg, nil)
				} else {
					l.walk(arg, h)
				}
			}
			return false
		}
		return true
	})
}

// named lints lit, given to the variable id, as a helper of its own.
func (l *linter) named(id *ast.Ident, lit *ast.FuncLit) bool {
	obj := l.pkg.TypesInfo.Defs[id]
	if obj == nil {
		obj = l.pkg.TypesInfo.Uses[id]
	}
	if obj == nil {
		return false
	}
	l.add(obj, l.unit(id.Name, lit.Body))
	return true
}

// calledObject is the function, method or function variable call calls,
// if it names one.
func calledObject(info *types.Info, call *ast.CallExpr) types.Object {
	fun := call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // a generic function instantiated explicitly
		fun = ix.X
	}
	var id *ast.Ident
	switch fun := fun.(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	}
	if id == nil {
		return nil
	}
	switch o := info.Uses[id].(type) {
	case *types.Func, *types.Var:
		return o
	}
	return nil
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
