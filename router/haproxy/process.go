package haproxy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is HAProxy in master-worker mode. A reload (SIGUSR2 to the
// master) starts new workers on the new configuration while the old ones
// finish the connections they have: nothing established is dropped.
type Process struct {
	Binary string
	Dir    string
	// Output receives HAProxy's own messages; nil means stderr.
	Output io.Writer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// CheckConfig asks HAProxy whether the configuration in dir loads.
func CheckConfig(ctx context.Context, binary, dir string) error {
	out, err := exec.CommandContext(ctx, binary, "-c", "-q", "-f", filepath.Join(dir, ConfigFile)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("haproxy rejects the configuration: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (p *Process) masterSocket() string { return filepath.Join(p.Dir, "run", "master.sock") }

// Start runs HAProxy on the configuration already written to Dir and waits
// until its first worker runs. Its output goes to stderr.
func (p *Process) Start(ctx context.Context) error {
	if err := CheckConfig(ctx, p.Binary, p.Dir); err != nil {
		return err
	}
	cmd := exec.Command(p.Binary, "-W", "-db", "-S", p.masterSocket()+",mode,600", "-f", filepath.Join(p.Dir, ConfigFile))
	out := p.Output
	if out == nil {
		out = os.Stderr
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start haproxy: %w", err)
	}
	p.mu.Lock()
	p.cmd, p.done = cmd, make(chan struct{})
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	_, err := p.waitWorker(ctx, 0, nil)
	return err
}

// Reload checks the configuration now in Dir and, if it loads, makes
// HAProxy switch to it; it returns once a new worker serves it.
func (p *Process) Reload(ctx context.Context) error {
	if err := CheckConfig(ctx, p.Binary, p.Dir); err != nil {
		return err
	}
	before, err := p.showProc(ctx)
	if err != nil {
		return err
	}
	if err := p.signalReload(); err != nil {
		return err
	}
	_, err = p.waitWorker(ctx, before.worker, func(now procState) error {
		if now.masterReloads == before.masterReloads {
			return p.signalReload()
		}
		return nil
	})
	return err
}

// reloadResignal: a reload signal the master has not acted on this long
// (its reload count unchanged) is sent again. HAProxy 2.6's master once
// missed a SIGUSR2 that came just after its previous reload (in make
// test: it listed the new worker, then never reloaded again). A signal
// the master did act on is never repeated, so no reload of an older
// configuration follows the one waited for.
const reloadResignal = 3 * time.Second

// workerWait bounds the wait for a new worker after a start or a reload.
const workerWait = 20 * time.Second

func (p *Process) signalReload() error {
	p.mu.Lock()
	cmd := p.cmd
	p.mu.Unlock()
	if err := cmd.Process.Signal(syscall.SIGUSR2); err != nil {
		return fmt.Errorf("reload haproxy: %w", err)
	}
	return nil
}

// waitWorker waits until the master reports a current worker other than
// not (0: any). Every reloadResignal without one, stalled (when not nil)
// is given what the master last reported.
func (p *Process) waitWorker(ctx context.Context, not int, stalled func(procState) error) (int, error) {
	deadline := time.Now().Add(workerWait)
	next := time.Now().Add(reloadResignal)
	for {
		select {
		case <-p.done:
			return 0, fmt.Errorf("haproxy exited: %v", p.err)
		default:
		}
		now, err := p.showProc(ctx)
		if err == nil && now.worker != 0 && now.worker != not {
			return now.worker, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("haproxy started no new worker within %s", workerWait)
		}
		if stalled != nil && err == nil && time.Now().After(next) {
			if err := stalled(now); err != nil {
				return 0, err
			}
			next = time.Now().Add(reloadResignal)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// procState is what the master CLI's "show proc" says: how many times
// the master has reloaded, and its current worker's PID.
type procState struct {
	masterReloads int
	worker        int
}

// showProc reads the master CLI's "show proc".
func (p *Process) showProc(ctx context.Context) (procState, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", p.masterSocket())
	if err != nil {
		return procState{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := conn.Write([]byte("show proc\n")); err != nil {
		return procState{}, err
	}
	var st procState
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// "<PID> <type> <reloads> <uptime> <version>"; the first worker
		// line lists the current worker, old ones follow a heading.
		if len(f) >= 3 && f[1] == "master" {
			_, _ = fmt.Sscan(f[2], &st.masterReloads)
		}
		if len(f) >= 2 && f[1] == "worker" {
			if _, err := fmt.Sscan(f[0], &st.worker); err == nil {
				return st, nil
			}
		}
		if strings.HasPrefix(sc.Text(), "# old workers") {
			break
		}
	}
	return procState{}, errors.New("no current worker in show proc")
}

// Stop ends HAProxy and its workers.
func (p *Process) Stop() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}
