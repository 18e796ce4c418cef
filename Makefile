# Hermetic conformance suite for OpenShift-style ingress routers.
# `make help` lists the targets.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# openshift/* modules are served only as pseudo-versions that the checksum
# database does not know; go.sum pins them.
export GONOSUMDB := github.com/openshift
# What is compiled is the checkout: GOFLAGS from the command line or the
# environment (an -overlay, a -modfile) and a go.work cannot change it.
override GOFLAGS := -buildvcs=false
override GOWORK := off
export GOFLAGS GOWORK

# Where a run's outputs go: $(ARTIFACTS) when the CI sets it (Prow
# collects that directory and reads its junit*.xml), else _output/, which
# holds no source (reports/ is the Go package that writes them).
ARTIFACTS ?=
REPORTS ?= $(or $(ARTIFACTS),_output)
# Pinned versions of the hermetic profile that clean-images needs.
pinned = $(shell sed -n 's/^$(1)=//p' clusters/kind/versions.env)
K8S_VERSION := $(call pinned,K8S_VERSION)
ETCD_TAG := $(call pinned,ETCD_TAG)
COREDNS_VERSION := $(call pinned,COREDNS_VERSION)
PAUSE_TAG := $(call pinned,PAUSE_TAG)
# Parallel Ginkgo processes for the specs. Four on 2 cores: the specs
# mostly wait (rollouts, reloads, CRL lifetimes), and the kind profile
# maps a pair of shard ports for each of up to four processes.
PROCS ?= 4
# The parallelism levels make bench measures, serial first.
BENCH_PROCS ?= 1,2,4
# KEEP=1 keeps the cluster after make e2e; REUSE=1 reuses a running one.
KEEP ?=
# COLD=1: make bench-ci times CI from empty caches of its own.
COLD ?=
REUSE ?=
CLUSTER ?= router-conformance
# ARGS passes more suite flags, e.g. ARGS="-config e2e/example-config.yaml".
ARGS ?=
# The folder of the five design documents the trace points into (make
# test; default: ../shared/seeds beside the checkout, else skipped).
DOCUMENTS ?=
# ROUTER_IMAGE runs the specs against a local Docker image of another
# router (never pulled) instead of the reference router.
ROUTER_IMAGE ?=
# REPEAT=N runs the suite N times on one cluster; summary.md then lists
# every spec that failed at least once, with its failure messages.
REPEAT ?= 1
# FOCUS limits the run to a Ginkgo label expression, e.g. FOCUS=client-tls.
FOCUS ?=
# FLAKE_ATTEMPTS=N runs a failing spec up to N times (ginkgo
# --flake-attempts): one that fails, then passes is a flake, passed for
# the verdict and reported as one (junit.xml: a failed and a passed test
# case of its name; summary.md; conformance.yaml). Never in make certify.
FLAKE_ATTEMPTS ?=
# MUTANTS: the faults make mutants runs: fault IDs, documents (hsts) or
# features (hsts-policy), comma-separated; all; ci (a few chosen by the
# commit, as CI runs them).
MUTANTS ?= all
# Another router is judged: the reference router's image is not built.
BUILD_IMAGES_ARGS = $(if $(ROUTER_IMAGE),-skip-reference-router)
# The history.jsonl files make trend draws (a nightly job carries its own
# from night to night).
HISTORY ?= $(REPORTS)/history.jsonl
# make e2e-existing: the lab cluster's name, where its run's reports go,
# and the kind profile's report.json it is compared with (make e2e's).
EXISTING_CLUSTER ?= router-conformance-existing
EXISTING_REPORTS ?= $(REPORTS)/existing
KIND_REPORT ?= $(REPORTS)/report.json
# The lab's shape: LAB_WORKERS worker nodes (0: one node, its ports mapped
# to 127.0.0.1, no load balancer), the default IngressController's router
# replicas on them (LAB_REPLICAS, default 2: one per worker), and a TCP
# load balancer in front, the suite's only way to the routers: the
# default router's frontends, and a pair of shard frontends per parallel
# process (its SHARD_ADDRS, the suite's -shard-addrs), so that a spec's
# own IngressController runs in parallel there as on kind.
LAB_WORKERS ?= 2
LAB_REPLICAS ?=
# What the lab's run claims: sharding (its shard frontends), and with the
# reference router (no ROUTER_IMAGE) also delegation, which it serves and
# the kind profile claims for it; the existing profile cannot tell
# routers apart, so the claim is made as a vendor makes theirs. Another
# router: the profile's default claims (sharding among them).
EXISTING_FEATURES ?= $(if $(ROUTER_IMAGE),,router,hsts,header-actions,sharding,hsts-policy,client-tls,component-routes,route-annotations,delegation)
# make e2e-incluster: where hydrophone's results go, and the kind
# profile's JUnit (make e2e's) they are compared with.
INCLUSTER_REPORTS ?= $(REPORTS)/incluster
KIND_JUNIT ?= $(REPORTS)/junit.xml
# What the in-cluster run claims: its lab runs the reference router, so
# delegation too; sharding, which -in-cluster can run.
INCLUSTER_FEATURES ?= router,hsts,header-actions,sharding,hsts-policy,client-tls,component-routes,route-annotations,delegation
# More suite flags for the pod's run, e.g. INCLUSTER_ARGS="--certify=true
# --implementation-organization=Acme ..." (hydrophone takes --key=value only; no spaces or commas in values).
INCLUSTER_ARGS ?=
# make e2e-kit: the features the kit's proof runs and must pass.
KIT_FEATURES ?= router,hsts
# make manifests: where the platform's manifests go and the pull policy of
# its containers.
MANIFESTS ?= $(REPORTS)/manifests
PULL_POLICY ?= IfNotPresent
# OPENSHIFT_RELEASE=<line> judges the router against that OpenShift
# release line's upstream behaviour (contract/releases.go; default: the
# newest the suite tracks).
OPENSHIFT_RELEASE ?=
RELEASE_FLAG = $(if $(OPENSHIFT_RELEASE),-openshift-release=$(OPENSHIFT_RELEASE))
# The implementation named in the report (required by make certify).
IMPLEMENTATION_ORGANIZATION ?=
IMPLEMENTATION_PROJECT ?=
IMPLEMENTATION_URL ?=
IMPLEMENTATION_CONTACT ?=
IMPLEMENTATION_VERSION ?=
IMPLEMENTATION_ARGS = $(if $(IMPLEMENTATION_ORGANIZATION),-implementation-organization='$(IMPLEMENTATION_ORGANIZATION)') \
	$(if $(IMPLEMENTATION_PROJECT),-implementation-project='$(IMPLEMENTATION_PROJECT)') \
	$(if $(IMPLEMENTATION_URL),-implementation-url='$(IMPLEMENTATION_URL)') \
	$(if $(IMPLEMENTATION_CONTACT),-implementation-contact='$(IMPLEMENTATION_CONTACT)') \
	$(if $(IMPLEMENTATION_VERSION),-implementation-version='$(IMPLEMENTATION_VERSION)')
# The one run path (runner/): clearing the previous run, Ginkgo's command
# line, REPEAT, certification, bundle, verification, the verdict line and
# the exit status (0 only for passed). It stamps the build git describes
# (version, commit, dirty) into the suite; no make variable sets it. It is
# built, then exec'd in place of the recipe's shell, so that make's own
# SIGTERM (a cancelled CI job) reaches it and it runs the cleanups (go run
# would die and leave it running).
RUN_BIN := .cache/bin/run
RUN_BUILD = go build -o $(RUN_BIN) ./runner/cmd/run
RUN = $(RUN_BUILD) && exec $(RUN_BIN)
# run_flags are the run path's own flags, its reports into $(1).
run_flags = -procs=$(PROCS) -repeat=$(REPEAT) -reports=$(1) $(if $(FOCUS),-focus='$(FOCUS)') $(if $(FLAKE_ATTEMPTS),-flake-attempts=$(FLAKE_ATTEMPTS))
# The suite's flags of a kind run.
SUITE_FLAGS = -cluster-name=$(CLUSTER) $(if $(KEEP),-keep) $(if $(REUSE),-reuse) $(if $(ROUTER_IMAGE),-router-image=$(ROUTER_IMAGE)) $(RELEASE_FLAG) $(IMPLEMENTATION_ARGS) $(ARGS)
# ALLOW_DEV=1: make verify accepts a bundle of a development build.
ALLOW_DEV ?=
# SIGN_KEY=<PEM private key>: make certify signs the bundle's attestation
# (in-toto Statement, DSSE); make reproduce (the certifier's rerun) signs
# the certifier's statement with it. KEY=<PEM public key>: make verify
# requires the vendor's signature by it; CERTIFIER_KEY=<PEM public key>:
# make verify requires the certifier's statement of a matching rerun
# signed by it, and only then says CERTIFIED (ECDSA P-256 or Ed25519).
SIGN_KEY ?=
KEY ?=
CERTIFIER_KEY ?=

.PHONY: help
# The variables make help shows with their values (README.md: the common
# ones; docs/running.md and docs/certification.md: the rest).
HELP_VARIABLES := ROUTER_IMAGE FOCUS PROCS KEEP REUSE REPEAT FLAKE_ATTEMPTS OPENSHIFT_RELEASE ARGS CLUSTER REPORTS \
	IMPLEMENTATION_ORGANIZATION IMPLEMENTATION_PROJECT IMPLEMENTATION_URL IMPLEMENTATION_CONTACT IMPLEMENTATION_VERSION \
	BUNDLE ALLOW_DEV SIGN_KEY KEY CERTIFIER_KEY LAB_WORKERS LAB_REPLICAS HISTORY COLD
# Every variable a target's description names, for help to expand.
help_values = $(foreach v,$(HELP_VARIABLES) MANIFESTS EXISTING_REPORTS KIND_REPORT INCLUSTER_REPORTS KIND_JUNIT KIT_FEATURES,$(v)=$($(v));)

help: ## list the targets and the variables, with their values
	@printf 'Targets: make <target> [VARIABLE=value ...]\n'
	@awk -v vals='$(help_values)' -f hack/help.awk $(MAKEFILE_LIST) | fold -s -w 83 | sed -e 's/^\([^ ]\)/                 \1/'
	@printf '\nVariables (current values; README.md, docs/ and the comments at the top of the Makefile say what each does):\n'
	@$(foreach v,$(HELP_VARIABLES),printf '  %-28s %s\n' '$(v)' '$(subst ','\'',$($(v)))';)

.PHONY: test
test: docker ## run every unit and integration test (installs haproxy for the router's; starts Docker for the image tests)
	@clusters/host/ensure-packages.sh haproxy=haproxy=$(call pinned,HAPROXY_VERSION) chromium=chromium
	@# -trimpath: the compiled packages do not name this checkout's path, so a
	@# fresh clone (CI) reuses the build cache of any other.
	$(if $(DOCUMENTS),TRACE_DOCUMENTS=$(abspath $(DOCUMENTS))) go test -trimpath -count=1 ./...

.PHONY: docker
docker: ## make sure a Docker engine answers (installs docker.io as root on Debian)
	@clusters/host/ensure-docker.sh

.PHONY: images
images: docker ## build the component images (cached by input hash)
	go run ./images/cmd/build-images

.PHONY: vet
vet: ## go vet, gofmt and goimports (imports grouped std / third party / this module)
	go vet ./...
	go vet -tags e2e ./e2e/... ./bench/routes
	go vet -tags conformance_faults ./faults/... ./router/... ./platform/... ./fixtures/...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	@test -z "$$(go tool goimports -l -local github.com/router-conformance/suite $$(git ls-files '*.go'))" || { go tool goimports -l -local github.com/router-conformance/suite $$(git ls-files '*.go'); echo "goimports: imports above are not grouped std / third party / this module (go tool goimports -w -local github.com/router-conformance/suite <file>)"; exit 1; }

.PHONY: node-image
node-image: docker ## build the kind node image offline (cached stage by stage)
	@clusters/kind/nodeimage/build.sh >/dev/null

.PHONY: cluster
cluster: docker ## create (or reuse) the hermetic kind cluster
	go run ./clusters/kind/cmd/hermetic-kind up -reuse -name $(CLUSTER)

.PHONY: cluster-down
cluster-down: ## delete the hermetic kind cluster, its network and its seal rule
	go run ./clusters/kind/cmd/hermetic-kind down -name $(CLUSTER)

.PHONY: cluster-logs
cluster-logs: ## export the cluster's node logs to $(REPORTS)/cluster-logs
	go run ./clusters/kind/cmd/hermetic-kind logs -name $(CLUSTER) -dir $(REPORTS)/cluster-logs

.PHONY: smoke
smoke: docker ## run the cluster's own checks (the smoke label) through the run path: verdict partial, exit status 0 when they pass (KEEP=1, REUSE=1 as for e2e)
	@$(RUN) smoke -procs=$(PROCS) -reports=$(REPORTS) $(SUITE_FLAGS)

.PHONY: e2e
e2e: docker ## bring up the hermetic cluster, run the conformance specs, write $(REPORTS)/, delete the cluster (REPEAT=N: N runs on one cluster, flakes counted)
	@$(RUN) e2e $(call run_flags,$(REPORTS)) $(SUITE_FLAGS)

.PHONY: certify
certify: docker ## a certification run: the whole claimed suite once, then $(REPORTS)/<org>-<project>-<version>.tar.gz, verified (IMPLEMENTATION_ORGANIZATION, _PROJECT, _URL, _CONTACT required; the rules: reports/certify.go)
	@$(RUN) certify $(call run_flags,$(REPORTS)) $(if $(SIGN_KEY),-sign-key=$(SIGN_KEY)) $(SUITE_FLAGS)

.PHONY: e2e-images
e2e-images: docker ## build the node image and the component images make e2e needs (as its run path does before Ginkgo starts), progress on the console (cached: a warm run builds nothing; ROUTER_IMAGE: no reference router)
	@clusters/kind/nodeimage/build.sh >/dev/null
	@go run ./images/cmd/build-images $(BUILD_IMAGES_ARGS) >/dev/null

.PHONY: trend
trend: ## draw $(REPORTS)/trend.html from HISTORY="<history.jsonl>..." (default: $(REPORTS)/history.jsonl): pass rate and spec time per feature, the flakiest specs, every run
	go run ./reports/cmd/trend -o $(REPORTS)/trend.html $(HISTORY)

.PHONY: push-images
push-images: docker ## push the fixture images the existing profile deploys to IMAGE_REPOSITORY=<registry/prefix> (then ARGS="-image-repository=... -images-pushed")
	@test -n "$(IMAGE_REPOSITORY)" || { echo "error: set IMAGE_REPOSITORY, e.g. registry.example/conformance" >&2; exit 2; }
	go run ./images/cmd/push-images -repository $(IMAGE_REPOSITORY)

.PHONY: manifests
manifests: images ## render the platform as plain manifests an operator applies with kubectl into $(MANIFESTS) (the local image tags; PULL_POLICY=Never for images loaded into the nodes)
	@imgs=$$(go run ./images/cmd/build-images); get() { sed -n "s/^$$1=//p" <<<"$$imgs"; }; \
	go run ./platform/install/cmd/manifests -dir $(MANIFESTS) -pull-policy $(PULL_POLICY) \
	  -router-image "$(or $(ROUTER_IMAGE),$$(get router))" -admission-image "$$(get route-admission)" -reconciler-image "$$(get ingress-reconciler)" -syslog-image "$$(get syslog)"

.PHONY: e2e-existing
e2e-existing: docker ## the existing profile proven: a lab cluster the suite did not install (LAB_WORKERS=2 workers, LAB_REPLICAS router replicas behind a TCP load balancer with shard frontends; manifests applied with kubectl, a registry beside it), the suite run with -profile existing -image-repository -shard-addrs -allow-disruptive through the load balancer into $(EXISTING_REPORTS), compared spec by spec with make e2e's $(KIND_REPORT) (REPEAT=N: each run, compare-<i>.md)
	@test -f $(KIND_REPORT) || { echo "error: $(KIND_REPORT) is missing: run make e2e first (the kind profile's run this one is compared with), or set KIND_REPORT=<report.json>" >&2; exit 2; }
	@rm -rf $(EXISTING_REPORTS); mkdir -p $(EXISTING_REPORTS)
	@status=0; lab=.cache/bin/existing-cluster; go build -o $$lab ./clusters/existing/cmd/existing-cluster; $(RUN_BUILD) || exit 2; \
	if [ -z "$(KEEP)" ]; then trap "$$lab down -name $(EXISTING_CLUSTER)" EXIT; trap 'exit 130' INT TERM; fi; \
	start=$$(date +%s); \
	$$lab up -name $(EXISTING_CLUSTER) -workers $(LAB_WORKERS) $(if $(LAB_REPLICAS),-replicas $(LAB_REPLICAS)) $(if $(ROUTER_IMAGE),-router-image=$(ROUTER_IMAGE)) \
	  -manifests $(EXISTING_REPORTS)/manifests -env-file $(EXISTING_REPORTS)/lab.env -pods-file $(EXISTING_REPORTS)/router-pods-before.txt $(if $(KEEP),-keep-on-error) || exit 1; \
	up=$$(( $$(date +%s) - start )); start=$$(date +%s); \
	. $(EXISTING_REPORTS)/lab.env; \
	$(RUN_BIN) e2e $(call run_flags,$(EXISTING_REPORTS)) -profile existing -kubeconfig "$$KUBECONFIG" -http-addr "$$HTTP_ADDR" -https-addr "$$HTTPS_ADDR" -domain "$$DOMAIN" \
	  -image-repository "$$REGISTRY/conformance" $${SHARD_ADDRS:+-shard-addrs="$$SHARD_ADDRS"} -allow-disruptive $(if $(EXISTING_FEATURES),-features=$(EXISTING_FEATURES)) $(RELEASE_FLAG) $(ARGS) || status=$$?; \
	printf "lab_workers='%s'\nlab_replicas='%s'\nlab_nodes='%s'\nload_balancer='%s %s over %s'\nshard_addrs='%s'\nlab_up_seconds='%s'\nsuite_seconds='%s'\n" \
	  "$(LAB_WORKERS)" "$$REPLICAS" "$$NODES" "$$HTTP_ADDR" "$$HTTPS_ADDR" "$$LOAD_BALANCER" "$$SHARD_ADDRS" "$$up" "$$(( $$(date +%s) - start ))" >$(EXISTING_REPORTS)/times.env; \
	$$lab pods -name $(EXISTING_CLUSTER) -pods-file $(EXISTING_REPORTS)/router-pods.txt >/dev/null || status=1; \
	if [ -f $(EXISTING_REPORTS)/report.json ]; then \
	  go run ./reports/cmd/compare -a $(KIND_REPORT) -b $(EXISTING_REPORTS)/report.json -out $(EXISTING_REPORTS)/compare.md || status=1; \
	else for i in $$(seq 1 $(REPEAT)); do \
	  go run ./reports/cmd/compare -a $(KIND_REPORT) -b $(EXISTING_REPORTS)/report-$$i.json -b-name "existing (run $$i)" -out $(EXISTING_REPORTS)/compare-$$i.md || status=1; \
	done; fi; \
	echo "lab: $$(tr '\n' ' ' <$(EXISTING_REPORTS)/times.env)"; \
	exit $$status

.PHONY: e2e-incluster
e2e-incluster: docker ## the suite in the cluster: the conformance image run by hydrophone (pinned, built from the module) on a lab cluster (LAB_WORKERS workers, LAB_REPLICAS router replicas), reaching routers through their Services; e2e.log and junit_01.xml compared spec by spec with make e2e's $(KIND_JUNIT), into $(INCLUSTER_REPORTS)
	@rm -rf $(INCLUSTER_REPORTS)
	go run ./incluster/cmd/e2e-incluster -kind-junit $(KIND_JUNIT) -out $(INCLUSTER_REPORTS) -workers $(LAB_WORKERS) $(if $(LAB_REPLICAS),-replicas $(LAB_REPLICAS)) -parallel $(PROCS) $(foreach a,$(INCLUSTER_ARGS),-arg=$(a)) $(if $(KEEP),-keep) -features=$(INCLUSTER_FEATURES)

.PHONY: kit
kit: docker ## the air-gapped kit: $(REPORTS)/router-conformance-kit-<version>-<os>-<arch>.tar (every image, the compiled suite, ./run; docs/kit.md)
	@go run ./kit/cmd/make-kit -out $(REPORTS)

.PHONY: list-images
list-images: docker ## the images a run loads and a kit carries: name, local reference, image ID (builds what is not cached)
	@go run ./kit/cmd/make-kit -list

.PHONY: e2e-kit
e2e-kit: docker ## the kit's proof: make kit, then run it unpacked in an empty directory for $(KIT_FEATURES) with no go, no apt and GOPROXY=off
	@kit=$$(go run ./kit/cmd/make-kit -out $(REPORTS)); echo "kit: $$kit ($$(du -h "$$kit" | cut -f1))"; \
	go run ./kit/cmd/prove-kit -kit "$$kit" -features $(KIT_FEATURES)

.PHONY: verify
verify: ## check a certification bundle: BUNDLE=<file.tar.gz>: CONSISTENT (its files agree), CERTIFIED only with CERTIFIER_KEY and the certifier's statement of a matching rerun (ALLOW_DEV=1: of a development build)
	@test -n "$(BUNDLE)" || { echo "error: set BUNDLE to a bundle made by make certify" >&2; exit 2; }
	@$(RUN) verify $(if $(ALLOW_DEV),-allow-dev) $(if $(KEY),-key=$(KEY)) $(if $(CERTIFIER_KEY),-certifier-key=$(CERTIFIER_KEY)) $(BUNDLE)

.PHONY: reproduce
reproduce: docker ## rerun a bundle's run here and compare spec by spec: BUNDLE=<file.tar.gz>; SIGN_KEY=<certifier's key> writes the certifier's statement on a match (its router image docker-loaded; an existing profile's bundle: ARGS="-kubeconfig=... -http-addr=... -https-addr=... -domain=..."; ALLOW_DEV=1 for a development build; the rerun's kind cluster is CLUSTER)
	@test -n "$(BUNDLE)" || { echo "error: set BUNDLE to a bundle made by make certify" >&2; exit 2; }
	@$(RUN) reproduce $(if $(ALLOW_DEV),-allow-dev) $(if $(SIGN_KEY),-sign-key=$(SIGN_KEY)) -procs=$(PROCS) -reports=$(REPORTS)/reproduce $(BUNDLE) -cluster-name=$(CLUSTER) $(ARGS)

.PHONY: specs
specs: ## write reports/specs.json (the spec list this suite version publishes), docs/conformance-specs.md (the catalogue, from the spec tree) and docs/trace.md (from trace/*.yaml and faults/catalogue), docs/faults.md (from faults/catalogue)
	UPDATE_SPECS=1 go test -count=1 -run 'TestThePublishedSpecListIsCurrent|TestTheCatalogueIsCurrent' ./e2e/conformance
	UPDATE_SPECS=1 go test -count=1 -run 'TestTheTracePageIsCurrent' ./trace
	UPDATE_SPECS=1 go test -count=1 -run 'TestTheFaultsPageIsCurrent' ./faults/catalogue

.PHONY: e2e-upstream
e2e-upstream: ## the suite against the upstream OpenShift router: UPSTREAM_ROUTER_IMAGE=<local image> (built outside this repository: docs/other-clusters.md)
	@test -n "$(UPSTREAM_ROUTER_IMAGE)" || { echo "error: set UPSTREAM_ROUTER_IMAGE to a local Docker image of github.com/openshift/router (docs/other-clusters.md: The upstream OpenShift router)" >&2; exit 2; }
	$(MAKE) e2e ROUTER_IMAGE=$(UPSTREAM_ROUTER_IMAGE)

.PHONY: bench-cluster
bench-cluster: docker ## measure node-image cold/warm build, cluster create/delete into $(REPORTS)/bench-cluster.{json,md}
	clusters/kind/bench.sh $(REPORTS)/bench-cluster

.PHONY: bench-router
bench-router: docker ## measure convergence (Route, IngressRoute vertex, component route: create -> first correct answer) p50/p99 through the run path into $(REPORTS)/bench-router.{json,md} (KEEP=1, REUSE=1 as for e2e)
	@$(RUN) bench-router -reports=$(REPORTS) $(SUITE_FLAGS)

.PHONY: mutants
mutants: docker ## coverage proven by faults: the reference router and stand-ins built with their fault points (faults/catalogue), one cluster, a control run, then each fault of MUTANTS switched on against the specs of its statements, into $(REPORTS)/mutants.{json,md} (docs/mutants.md; KEEP=1, REUSE=1 as for e2e)
	@$(RUN) mutants -mutants='$(MUTANTS)' -procs=$(PROCS) -reports=$(REPORTS) $(SUITE_FLAGS)

.PHONY: bench
bench: docker ## the whole suite serial, -p 2 and -p 4 on a warm cluster, per-feature time, into $(REPORTS)/bench-e2e.{json,md}
	go run ./bench/e2e -out $(REPORTS)/bench-e2e -procs $(BENCH_PROCS) -cluster-name $(CLUSTER) $(if $(KEEP),-keep)

.PHONY: bench-cpu
bench-cpu: docker ## where the CPU goes during the whole suite on kind (PROCS processes, through the run path): the node's pods by what they are, the container runtime and kubelet, the host; into $(REPORTS)/bench-cpu.{json,md} (cgroup v1 hosts)
	go run ./bench/cpu -out $(REPORTS)/bench-cpu -procs $(PROCS) -cluster-name $(CLUSTER) $(if $(KEEP),-keep)

.PHONY: bench-lab
bench-lab: docker ## the multi-node lab's cost beside kind's: make e2e-existing (its bring-up and suite wall time) and make e2e's $(KIND_REPORT) duration, into $(REPORTS)/bench-lab.md
	@$(MAKE) --no-print-directory e2e-existing || status=$$?; \
	. $(EXISTING_REPORTS)/times.env; \
	kind=$$(sed -n 's/^| duration | \(.*\) |$$/\1/p' $(dir $(KIND_REPORT))summary.md); lab=$$(sed -n 's/^| duration | \(.*\) |$$/\1/p' $(EXISTING_REPORTS)/summary.md); \
	{ echo "# The lab beside kind"; echo; echo "| | |"; echo "|---|---|"; \
	  echo "| lab | $$lab_workers workers, $$lab_replicas router replicas, load balancer $$load_balancer |"; \
	  echo "| lab bring-up (existing-cluster up) | $${lab_up_seconds}s |"; \
	  echo "| suite on the lab (PROCS=$(PROCS)): wall, fixture images pushed included / specs (its report) | $${suite_seconds}s / $$lab |"; \
	  echo "| suite on kind: specs (make e2e's report, $(KIND_REPORT)) | $$kind |"; } >$(REPORTS)/bench-lab.md; \
	cat $(REPORTS)/bench-lab.md; exit $${status:-0}

.PHONY: bench-ci
bench-ci: docker ## time .ci/run phase by phase from a clean clone of HEAD into $(REPORTS)/bench-ci.{json,md} (COLD=1: empty Go and image caches of its own, every image built again; the machine's stay)
	go run ./bench/ci -out $(REPORTS)/bench-ci $(if $(COLD),-cold)

.PHONY: bench-kit
bench-kit: docker ## the kit's size and files, and a whole-suite run from it on a Docker that holds none of its images (load + run) into $(REPORTS)/bench-kit.{json,md}
	@kit=$$(go run ./kit/cmd/make-kit -out $(REPORTS)); go run ./bench/kit -kit "$$kit" -out $(REPORTS)/bench-kit

.PHONY: clean
clean: ## remove run outputs ($(REPORTS)/, kubeconfigs in .cache/)
	if [ -d $(REPORTS) ]; then find $(REPORTS) -mindepth 1 -maxdepth 1 -exec rm -rf {} +; fi
	rm -rf .cache

.PHONY: clean-images
clean-images: ## remove every image this project built and its stage cache (the next run rebuilds, from the Go build cache)
	@docker images --format '{{.Repository}}:{{.Tag}}' | grep -E '^(router-conformance|router-conformance-bench)/|^registry\.k8s\.io/(kube-[a-z-]+:$(K8S_VERSION)|etcd:$(ETCD_TAG)|coredns/coredns:$(COREDNS_VERSION)|pause:$(PAUSE_TAG))$$' | xargs -r docker rmi -f >/dev/null
	rm -rf "$${E2E_CACHE_DIR:-$${XDG_CACHE_HOME:-$$HOME/.cache}/router-conformance}"
