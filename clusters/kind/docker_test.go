package kind

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ensure-docker.sh where it cannot install an engine (here: no apt-get on
// its PATH) says what to do for why `docker info` failed: no docker
// command, an engine this user may not use, none running. The control: an
// engine that answers is left alone, silently.
func TestNoDockerEngineSaysWhatToDo(t *testing.T) {
	script, err := filepath.Abs("../host/ensure-docker.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		docker string // the fake docker's script; "" is no docker command
		want   string
	}{
		{"answers", "exit 0", ""},
		{"no docker command", "", "ensure-docker: no docker command: install Docker"},
		{"permission denied", `echo "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock" >&2; exit 1`,
			"docker group (sudo usermod -aG docker "},
		{"not running", `echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1`,
			"ensure-docker: no Docker engine answers 'docker info': start it (sudo systemctl start docker), or run as root on Debian/Ubuntu and this script starts one for you. Docker said: Cannot connect to the Docker daemon"},
	} {
		bin := t.TempDir()
		for _, tool := range []string{"id", "bash"} {
			path, err := exec.LookPath(tool)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(path, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
		if tc.docker != "" {
			if err := os.WriteFile(filepath.Join(bin, "docker"), []byte("#!"+filepath.Join(bin, "bash")+"\n"+tc.docker+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(filepath.Join(bin, "bash"), script)
		cmd.Env = []string{"PATH=" + bin}
		out, err := cmd.CombinedOutput()
		if tc.want == "" {
			if err != nil || len(out) != 0 {
				t.Errorf("%s: %v, %q; want exit 0 and nothing said", tc.name, err, out)
			}
			continue
		}
		if err == nil || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: %v, %q; want exit 1 and one line with %q", tc.name, err, out, tc.want)
		}
	}
}
