// Package catalogue lists every fault point of the test-only fault build
// (package faults): its ID, the trace statements it breaks, the change it
// makes, and where it is. One YAML file per traced document, compiled in.
// `make test` holds it to the code and the trace (Check); `make mutants`
// runs each fault against the specs of its statements (docs/mutants.md).
package catalogue

import (
	"embed"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/trace"
)

//go:embed *.yaml
var files embed.FS

// Fault is one way to break the reference router or a platform stand-in.
type Fault struct {
	// ID is "<document>.<what breaks>", the value of faults.Env that
	// switches it on and the literal of its faults.On call.
	ID string `json:"id"`
	// Statements are the trace statement IDs it breaks: under it, each
	// has a spec that fails.
	Statements []string `json:"statements"`
	// Change says in one line what the fault does differently.
	Change string `json:"change"`
	// File and Function are where its faults.On call is ("Type.Method"
	// for a method).
	File     string `json:"file"`
	Function string `json:"function"`
	// Survives, when set, is why the fault survives its specs: a known
	// finding (docs/mutants.md), which make mutants reports but accepts.
	Survives string `json:"survives,omitempty"`
	// Killed is the suite commit at which make mutants last killed the
	// fault with every statement broken; CI's sample (MUTANTS=ci) is
	// drawn from these, so that it checks that what was proven stays so.
	Killed string `json:"killed,omitempty"`
}

// Document is one catalogue file: the faults of one traced document.
type Document struct {
	Key    string  `json:"document"`
	Faults []Fault `json:"faults"`
}

// Load reads every catalogue file, in trace.Order (a document with no
// fault yet has no file).
func Load() ([]Document, error) {
	var docs []Document
	for _, key := range trace.Order {
		data, err := files.ReadFile(key + ".yaml")
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var d Document
		if err := yaml.UnmarshalStrict(data, &d); err != nil {
			return nil, fmt.Errorf("faults/catalogue/%s.yaml: %w", key, err)
		}
		if d.Key != key {
			return nil, fmt.Errorf("faults/catalogue/%s.yaml: document is %q, want %q (the file's name)", key, d.Key, key)
		}
		docs = append(docs, d)
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if key := strings.TrimSuffix(e.Name(), ".yaml"); !slices.Contains(trace.Order, key) {
			return nil, fmt.Errorf("faults/catalogue/%s is no traced source of trace.Order", e.Name())
		}
	}
	return docs, nil
}

// All is every fault of docs, in catalogue order.
func All(docs []Document) []Fault {
	var out []Fault
	for _, d := range docs {
		out = append(out, d.Faults...)
	}
	return out
}

// MustCover are the traced documents every covered statement of which
// some fault must break: the five design documents.
func MustCover(d trace.Document) bool { return d.Designed() }

var idPattern = regexp.MustCompile(`^[a-z-]+\.[a-z0-9]+(-[a-z0-9]+)*$`)

// Check says everything wrong with the catalogue against the trace and
// the code under root: a malformed or repeated ID, a fault of another
// document's prefix, a statement that does not exist or has no specs
// to fail, a fault whose faults.On call is not in the function it names,
// a faults.On call anywhere whose fault is not catalogued (or not a
// literal), and a covered statement of a design document no fault breaks.
func Check(cat []Document, docs []trace.Document, root string) error {
	var errs []error
	statements := map[string]trace.Statement{}
	for _, d := range docs {
		for _, s := range d.Statements {
			statements[s.ID] = s
		}
	}
	calls, err := faultCalls(root)
	if err != nil {
		return err
	}
	broken := map[string]bool{}
	seen := map[string]bool{}
	for _, d := range cat {
		for _, f := range d.Faults {
			where := fmt.Sprintf("faults/catalogue/%s.yaml %s", d.Key, f.ID)
			if !idPattern.MatchString(f.ID) || !strings.HasPrefix(f.ID, d.Key+".") {
				errs = append(errs, fmt.Errorf("%s: the ID must be %q and a short kebab-case name", where, d.Key+".<what breaks>"))
			}
			if seen[f.ID] {
				errs = append(errs, fmt.Errorf("%s: repeated", where))
			}
			seen[f.ID] = true
			if strings.TrimSpace(f.Change) == "" || f.File == "" || f.Function == "" {
				errs = append(errs, fmt.Errorf("%s: change, file and function are required", where))
			}
			if len(f.Statements) == 0 {
				errs = append(errs, fmt.Errorf("%s: names no statement it breaks", where))
			}
			for _, id := range f.Statements {
				s, ok := statements[id]
				switch {
				case !ok:
					errs = append(errs, fmt.Errorf("%s: statement %s is in no trace file", where, id))
				case len(s.Specs) == 0:
					errs = append(errs, fmt.Errorf("%s: statement %s has no spec to fail (it is %s)", where, id, s.Status()))
				}
				broken[id] = true
			}
			at := calls[f.ID]
			if !slices.Contains(at, f.File+" "+f.Function) {
				errs = append(errs, fmt.Errorf("%s: no faults.On(%q) in %s %s (found at: %s)", where, f.ID, f.File, f.Function, strings.Join(at, ", ")))
			}
		}
	}
	for id, at := range calls {
		if !seen[id] {
			errs = append(errs, fmt.Errorf("faults.On(%q) at %s: no such fault in faults/catalogue", id, strings.Join(at, ", ")))
		}
	}
	for _, d := range docs {
		if !MustCover(d) {
			continue
		}
		for _, s := range d.Statements {
			if s.Status() == trace.Covered && !broken[s.ID] {
				errs = append(errs, fmt.Errorf("trace/%s.yaml %s is covered, but no fault of faults/catalogue breaks it", d.Key, s.ID))
			}
		}
	}
	return errors.Join(errs...)
}

// faultCalls finds every faults.On and faults.Chosen call in the module's Go files (not
// tests) under root: fault ID -> "file function" of each call. A call
// whose argument is not a string literal is listed under "".
func faultCalls(root string) (map[string][]string, error) {
	calls := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if name := e.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module is not this one's code
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := funcName(fn)
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				arg := faultArg(call)
				if arg == nil {
					return true
				}
				id := ""
				if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					id, _ = strconv.Unquote(lit.Value)
				}
				calls[id] = append(calls[id], rel+" "+name)
				return true
			})
		}
		return nil
	})
	return calls, err
}

// faultArg is the argument naming the fault of a faults.On(id) or a
// faults.Chosen(fault, id) call, nil for any other call.
func faultArg(call *ast.CallExpr) ast.Expr {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "faults" {
		return nil
	}
	switch {
	case sel.Sel.Name == "On" && len(call.Args) == 1:
		return call.Args[0]
	case sel.Sel.Name == "Chosen" && len(call.Args) == 2:
		return call.Args[1]
	}
	return nil
}

// funcName is "Name", or "Type.Name" for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok {
		t = idx.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// Specs are the specs whose failure shows the fault: those of its
// statements, each once, in order.
func (f Fault) Specs(docs []trace.Document) []contract.SpecID {
	want := map[string]bool{}
	for _, id := range f.Statements {
		want[id] = true
	}
	var out []contract.SpecID
	for _, d := range docs {
		for _, s := range d.Statements {
			if want[s.ID] {
				for _, spec := range s.Specs {
					if !slices.Contains(out, spec) {
						out = append(out, spec)
					}
				}
			}
		}
	}
	return out
}
