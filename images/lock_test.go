package images

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Two builders of one cache entry at once (two checkouts, or two runs,
// building the node image) take turns under lock_builds (lib.sh, which
// clusters/kind/nodeimage/build.sh and router/image/build-base.sh take
// before they touch the entry): each builder's steps run whole, never
// interleaved with the other's, and the one that waited says so. The
// control, the same builders without the lock, interleave.
func TestTwoBuildersOfOneEntryTakeTurns(t *testing.T) {
	lib, err := filepath.Abs("lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, locked := range []bool{true, false} {
		dir := t.TempDir()
		steps := filepath.Join(dir, "steps")
		lock := ""
		if locked {
			lock = "lock_builds kind-node;"
		}
		// A build that writes its state in two steps, as build.sh's
		// rm -rf, build, touch .done, mv.
		script := `. "$LIB"; ` + lock + ` echo "start $ID" >>"$STEPS"; sleep 1; echo "end $ID" >>"$STEPS"`
		var wg sync.WaitGroup
		var logs [2]bytes.Buffer
		for i, id := range []string{"a", "b"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command("bash", "-c", script)
				cmd.Env = append(os.Environ(), "LIB="+lib, "STEPS="+steps, "ID="+id, "E2E_CACHE_DIR="+dir)
				cmd.Stderr = &logs[i]
				if err := cmd.Run(); err != nil {
					t.Errorf("builder %s: %v: %s", id, err, logs[i].String())
				}
			}()
		}
		wg.Wait()
		data, err := os.ReadFile(steps)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(strings.ReplaceAll(string(data), "\n", " "))
		whole := len(lines) == 8 && lines[1] == lines[3] && lines[5] == lines[7]
		waited := strings.Contains(logs[0].String()+logs[1].String(), "kind-node: waiting for another build of it to finish")
		switch {
		case locked && (!whole || !waited):
			t.Errorf("with the lock: steps %q, waited %t", lines, waited)
		case !locked && whole:
			t.Errorf("the control, without the lock, did not interleave: %q", lines)
		}
	}
}
