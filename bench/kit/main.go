// Command kit measures the air-gapped kit (make bench-kit): its size and
// files, and a run from it on a machine whose Docker holds none of its
// images: the kit's images (and the router's Debian base, which shares
// their lower layers) are removed first, then ./run loads images.tar and
// runs the whole suite. Writes <out>.json and <out>.md. The base image
// is saved before and loaded back after, so later builds stay warm.
//
//	kit -kit _output/router-conformance-kit-....tar -out _output/bench-kit
package main

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/kit"
	"github.com/router-conformance/suite/reports"
)

type result struct {
	Kit          string    `json:"kit"`
	Bytes        int64     `json:"bytes"`
	Files        []kitFile `json:"files"`
	Images       int       `json:"images"`
	LoadSeconds  float64   `json:"loadSeconds"`
	RunSeconds   float64   `json:"runSeconds"`
	TotalSeconds float64   `json:"totalSeconds"`
	Verdict      string    `json:"verdict"`
	ExitCode     int       `json:"exitCode"`
}

type kitFile struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

func main() {
	tarFile := flag.String("kit", "", "the kit's tar (make kit prints it)")
	out := flag.String("out", "_output/bench-kit", "output prefix")
	work := flag.String("work", filepath.Join(os.TempDir(), "router-conformance-bench-kit"), "directory emptied and used")
	base := flag.String("router-base", "", "the router's Debian base image, removed and restored around the run (default: the one the kit's router builds FROM)")
	flag.Parse()
	if *tarFile == "" {
		log.Fatal("usage: kit -kit <kit.tar> [-out _output/bench-kit]")
	}
	if err := run(*tarFile, *out, *work, *base); err != nil {
		log.Fatal(err)
	}
}

func run(tarFile, out, work, base string) error {
	st, err := os.Stat(tarFile)
	if err != nil {
		return err
	}
	r := result{Kit: filepath.Base(tarFile), Bytes: st.Size()}
	if r.Files, err = listTar(tarFile); err != nil {
		return err
	}
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	if err := sh("tar", "-C", work, "-xf", tarFile); err != nil {
		return err
	}
	dir := filepath.Join(work, strings.TrimSuffix(r.Kit, ".tar"))
	m, err := images.ReadManifest(filepath.Join(dir, kit.ImagesJSON))
	if err != nil {
		return err
	}
	r.Images = len(m.Images)
	if base == "" {
		base, _ = dockerOut("image", "ls", "--format", "{{.Repository}}:{{.Tag}}", "router-conformance/router-base")
		base, _, _ = strings.Cut(base, "\n")
	}
	if base != "" {
		saved := filepath.Join(work, "router-base.tar")
		if err := sh("docker", "save", "-o", saved, base); err != nil {
			return err
		}
		defer func() {
			if err := sh("docker", "load", "-q", "-i", saved); err != nil {
				log.Printf("restore %s: %v (make e2e rebuilds it)", base, err)
			}
		}()
	}
	// Docker with nothing of the kit: every image by ID, all its tags.
	for _, img := range m.Images {
		_ = sh("docker", "rmi", "-f", img.ID)
	}
	if base != "" {
		_ = sh("docker", "rmi", "-f", base)
	}
	runKit := func(args ...string) (time.Duration, int, error) {
		cmd := exec.Command(filepath.Join(dir, kit.RunFile), args...)
		cmd.Dir = work
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		start := time.Now()
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return time.Since(start), exit.ExitCode(), nil
		}
		return time.Since(start), 0, err
	}
	load, code, err := runKit("load-images")
	if err != nil || code != 0 {
		return fmt.Errorf("./run load-images: exit %d: %v", code, err)
	}
	r.LoadSeconds = load.Seconds()
	runTime, code, err := runKit("e2e", "-reports", filepath.Join(work, "_output"), "-cluster-name", "router-conformance-bench-kit")
	if err != nil {
		return err
	}
	r.RunSeconds, r.ExitCode = runTime.Seconds(), code
	r.TotalSeconds = r.LoadSeconds + r.RunSeconds
	r.Verdict = string(reports.ReadResult(filepath.Join(work, "_output")))
	return write(out, r)
}

func write(out string, r result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out+".json", append(data, '\n'), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The air-gapped kit\n\n%s: %.2f GB, %d images\n\n", r.Kit, float64(r.Bytes)/1e9, r.Images)
	fmt.Fprintf(&b, "On a Docker holding none of its images (removed by ID, with the router's Debian base):\n\n")
	fmt.Fprintf(&b, "| step | seconds |\n|---|---|\n| ./run load-images | %.0f |\n| ./run e2e (whole suite, 4 processes) | %.0f |\n| total | %.0f |\n\n", r.LoadSeconds, r.RunSeconds, r.TotalSeconds)
	fmt.Fprintf(&b, "verdict: %s (exit %d)\n\n| file | bytes |\n|---|---|\n", r.Verdict, r.ExitCode)
	for _, f := range r.Files {
		fmt.Fprintf(&b, "| %s | %d |\n", f.Name, f.Bytes)
	}
	return os.WriteFile(out+".md", []byte(b.String()), 0o644)
}

func listTar(file string) ([]kitFile, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var files []kitFile
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		files = append(files, kitFile{Name: hdr.Name, Bytes: hdr.Size})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

func sh(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

func dockerOut(args ...string) (string, error) {
	out, err := exec.Command("docker", args...).Output()
	return strings.TrimSpace(string(out)), err
}
