# Targets are documented by their "## " comments; `make help` lists them.
# Plain POSIX make syntax where GNU make allows it, so the file reads the same to both.

GO = go

.PHONY: help
help: ## List the targets.
	@awk -F ':.*## ' '/^[A-Za-z0-9_.-]+:.*## / { printf "  %-16s %s\n", $$1, $$2 }' Makefile

.PHONY: generate
generate: ## Regenerate gen/ from wsdl/contactsync.wsdl, and the type zoos' packages (go generate ./...).
	$(GO) generate ./...

# GENERATED are the packages go generate writes: contactsync's own contract; the type zoos, the
# contract of awkward names (zoo/names), the one-way contract (zoo/oneway), the header contract
# (zoo/zoohdr), the contracts cut from the third zoo (zoo/outref, renamed, overloads, fetchitem, bare), the
# contract of open values (zoo/open), the record type holding inheritance hierarchies (zoo/polyrec) and
# the attributes contracts (zoo/attrs, and zoo/hierattrs with attributes in a hierarchy) the
# generator's golden tests use; and the frozen copy of contract 1.0 the record formats' tests run on.
GENERATED = ./gen ./tools/gowsdlgen/internal/zoo ./tools/gowsdlgen/internal/zoo/zoo2 ./tools/gowsdlgen/internal/zoo/names ./tools/gowsdlgen/internal/zoo/zoo3 ./tools/gowsdlgen/internal/zoo/oneway ./tools/gowsdlgen/internal/zoo/zoohdr ./tools/gowsdlgen/internal/zoo/outref ./tools/gowsdlgen/internal/zoo/renamed ./tools/gowsdlgen/internal/zoo/overloads ./tools/gowsdlgen/internal/zoo/fetchitem ./tools/gowsdlgen/internal/zoo/open ./tools/gowsdlgen/internal/zoo/bare ./tools/gowsdlgen/internal/zoo/polyrec ./tools/gowsdlgen/internal/zoo/attrs ./tools/gowsdlgen/internal/zoo/hierattrs ./server/internal/frozencontract

.PHONY: check-generate
check-generate: generate ## Fail if regenerating gen/ (or the type zoos' packages) changes it or adds files, or the result does not build.
	$(GO) build ./...
	$(GO) vet $(GENERATED)
	@git diff --exit-code -- $(GENERATED) || { \
		echo 'check-generate: generated code differs from what `make generate` produces; run `make generate` and commit it.' >&2; \
		exit 1; }
	@untracked=$$(git ls-files --others --exclude-standard -- $(GENERATED)); \
	if [ -n "$$untracked" ]; then \
		echo "check-generate: generation created files that are not committed:" >&2; \
		echo "$$untracked" >&2; \
		echo 'check-generate: commit them (or fix the generator) and run `make check-generate` again.' >&2; \
		exit 1; \
	fi

# After an edit of wsdl/contactsync.wsdl and `make generate`, make update-golden rewrites the golden
# files that pin the contract as it is: the server root's responses of every binding and its routing
# matrix (which hashes the served WSDL), the wsdl package's operations and named types, the data
# commands' exports (cmd/contactsync). It runs, in each package that has such files, the tests that write them under
# -update. Review the diff it leaves (git diff -- '*/testdata/*') and commit it with the edit; then
# make test passes with only server/service/ written by hand (docs/contract.md, "Changing the
# contract"). tools/contractevo's TestSuiteSurvivesContractEdit runs it on two patched contracts.
.PHONY: update-golden
update-golden: ## After a contract edit and make generate: rewrite the golden files that pin the contract (review, then commit them).
	$(GO) test -count=1 -run '^(TestGolden.*|TestRoutingMatrix)$$' ./server -update
	$(GO) test -count=1 -run '^(TestContractSchema|TestContractSchemaValid|TestContractOperations)$$' ./wsdl -update
	$(GO) test -count=1 -run '^(TestImportCSVFromSQLServer|TestImportRename)$$' ./cmd/contactsync -update

# The identity `make build` and `make release` stamp into the binary (contactsync --version): VERSION
# is what git describe says of the checkout (a tag, else a commit, "-dirty" with uncommitted changes),
# "devel" outside git; give VERSION=1.4.0 for a release. A build without them (go install, go run)
# says "devel".
VERSION != git describe --tags --always --dirty 2>/dev/null || echo devel
COMMIT != git rev-parse HEAD 2>/dev/null || true
DATE != date -u +%Y-%m-%dT%H:%M:%SZ
LDFLAGS = -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: build
build: ## Build the contactsync binary into bin/: static (CGO_ENABLED=0), stamped with VERSION, commit and date.
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/contactsync ./cmd/contactsync

# RELEASE_TARGETS are the platforms `make release` builds; CI builds one (RELEASE_TARGETS=linux/amd64).
RELEASE_TARGETS = linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

.PHONY: release
release: ## Build release archives of every RELEASE_TARGETS (tar.gz, zip for Windows) and SHA256SUMS into bin/release/.
	$(GO) run ./tools/release -go '$(GO)' -out bin/release -version '$(VERSION)' -date '$(DATE)' -ldflags '$(LDFLAGS)' $(RELEASE_TARGETS)

# The container image `make image` builds. CONTAINER_BUILD='docker build' builds it with Docker
# (podman needs --format docker to keep the HEALTHCHECK); CA_CERTS is the build host's CA bundle,
# copied into the image for outgoing TLS (PostgreSQL with sslmode=verify-full).
IMAGE = contactsync:$(VERSION)
CONTAINER_BUILD = podman build --format docker
CA_CERTS = /etc/ssl/certs/ca-certificates.crt

.PHONY: image
image: build ## Build the container image IMAGE (Containerfile) from bin/contactsync, in the context bin/image/.
	rm -rf bin/image
	mkdir -p bin/image/data
	cp bin/contactsync bin/image/contactsync
	cp '$(CA_CERTS)' bin/image/ca-certificates.crt
	$(CONTAINER_BUILD) -f Containerfile -t '$(IMAGE)' bin/image

.PHONY: run
run: ## Run the service on :8080 with the embedded SQLite store (./contactsync.db).
	$(GO) run ./cmd/contactsync serve

# RACE_PACKAGES are the packages that run goroutines over shared state, in their code or their tests
# (the server and its handlers, serve and the CLI, the stores and their batching and health probes,
# admission, authentication, observability, the transfer pipeline, the pools of the wire readers and
# binding buffers, each binding and the documents every request shares, the client): make test runs
# them under the race detector. Every other package (go list ./... less these: the generator and its
# type zoos, the contract and its checks, the service, deploy/, docs/ and tools/, whose tests drive
# processes and builds)
# is sequential and runs without it, two to ten times faster. A package that starts goroutines belongs
# here. go test starts packages in this order, two at a time, and gotestsum prints each as it ends:
# the longest (cmd/contactsync) first, then the quick ones, so progress shows in the first minute, then
# server and the stores.
RACE_PACKAGES = ./cmd/... ./server/admission ./server/auth ./server/binding/... ./server/client ./server/docs \
	./server/internal/ratelog ./server/observe/... ./server/transfer/... ./server/wire/... ./server ./server/store/...

# FIRST_PACKAGES start first among the packages without the race detector: the longest, so the rest
# run beside it instead of after it. That go test runs under FIRST_TIMEOUT rather than go test's 10
# minutes: tools/contractevo builds and serves sixteen patched contracts (about 10 s of CPU each, two
# at a time) and bounds each patch itself (patchTimeout), so only a machine shared with other builds
# makes the package as a whole pass 10 minutes, as one did with 16 patches at load 10-20.
FIRST_PACKAGES = ./tools/contractevo
FIRST_TIMEOUT = 20m

# TEST_FLAGS are make test's go test flags; -parallel 4 lets cmd/contactsync's parallel tests (real
# binaries and servers, mostly waiting) overlap on two cores; tools/contractevo bounds its own patches.
TEST_FLAGS = -count=1 -parallel 4

# FAIL_ON_SKIP=true (what .ci/run sets) makes make test fail when any test skipped or none ran.
FAIL_ON_SKIP = false

.PHONY: test
test: ## Every test (RACE_PACKAGES with the race detector), each fuzz target briefly, then every skipped test with its reason.
	@mkdir -p bin
	$(GO) tool gotestsum --format pkgname --jsonfile bin/test.json --raw-command -- sh -c '\
		race=$$($(GO) list $(RACE_PACKAGES)) && first=$$($(GO) list $(FIRST_PACKAGES)) && \
		plain=$$($(GO) list ./... | grep -vxF "$$race" | grep -vxF "$$first") || exit 1; \
		$(GO) test -json -race $(TEST_FLAGS) $$race; status=$$?; \
		$(GO) test -json $(TEST_FLAGS) -timeout $(FIRST_TIMEOUT) $$first $$plain || status=$$?; \
		exit $$status'
	$(MAKE) fuzz FUZZTIME=$(TEST_FUZZTIME)
	$(GO) run ./tools/skipreport -fail-on-skip=$(FAIL_ON_SKIP) bin/test.json

# TEST_FUZZTIME is an execution count, not a duration: with a duration, Go 1.26's fuzz coordinator can
# report a spurious "context deadline exceeded" failure when the time runs out under CPU contention
# (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline to race. 10,000 executions take
# 2-7 s per target (the twenty take 1-2 minutes) on this project's two-core machines; make test-long
# gives each LONG_FUZZTIME.
TEST_FUZZTIME = 10000x
LONG_FUZZTIME = 50000x

.PHONY: test-long
test-long: ## The long forms of what make test runs short: make jepsen (JEPSEN_DURATION), then each fuzz target for LONG_FUZZTIME.
	$(MAKE) jepsen
	$(MAKE) fuzz FUZZTIME=$(LONG_FUZZTIME)

FUZZTIME = 30s

.PHONY: fuzz
fuzz: ## Run each fuzz target for FUZZTIME (default 30s).
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeEnvelope$$' -fuzztime $(FUZZTIME) ./server/binding/soap
	$(GO) test -run '^$$' -fuzz '^FuzzFastEnvelope$$' -fuzztime $(FUZZTIME) ./server/binding/soap
	$(GO) test -run '^$$' -fuzz '^FuzzXMLBudget$$' -fuzztime $(FUZZTIME) ./server/binding/soap
	$(GO) test -run '^$$' -fuzz '^FuzzReadContentType$$' -fuzztime $(FUZZTIME) ./server/binding
	$(GO) test -run '^$$' -fuzz '^FuzzHTTPBindings$$' -fuzztime $(FUZZTIME) ./server/binding/httpform
	$(GO) test -run '^$$' -fuzz '^FuzzJSONBinding$$' -fuzztime $(FUZZTIME) ./server/binding/json
	$(GO) test -run '^$$' -fuzz '^FuzzAuthCredentials$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzRequestID$$' -fuzztime $(FUZZTIME) ./server/observe
	$(GO) test -run '^$$' -fuzz '^FuzzGeneratedDecoders$$' -fuzztime $(FUZZTIME) ./server/wire/xmlwire
	$(GO) test -run '^$$' -fuzz '^FuzzRawXML$$' -fuzztime $(FUZZTIME) ./server/wire/xmlany
	$(GO) test -run '^$$' -fuzz '^FuzzXSIType$$' -fuzztime $(FUZZTIME) ./server/wire/xmlany
	$(GO) test -run '^$$' -fuzz '^FuzzXSITypeDispatch$$' -fuzztime $(FUZZTIME) ./server/wire/xmlany
	$(GO) test -run '^$$' -fuzz '^FuzzObject$$' -fuzztime $(FUZZTIME) ./server/wire/anytype
	$(GO) test -run '^$$' -fuzz '^FuzzParseDecimal$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzParseGUID$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzFormValues$$' -fuzztime $(FUZZTIME) ./server/wire/formwire
	$(GO) test -run '^$$' -fuzz '^FuzzRecordReader$$' -fuzztime $(FUZZTIME) ./server/wire/recordwire
	$(GO) test -run '^$$' -fuzz '^FuzzCarryUnknown$$' -fuzztime $(FUZZTIME) ./server/wire/recordwire
	$(GO) test -run '^$$' -fuzz '^FuzzRecordUnsigned$$' -fuzztime $(FUZZTIME) ./server/wire/recordwire
	$(GO) test -run '^$$' -fuzz '^FuzzRecordObject$$' -fuzztime $(FUZZTIME) ./server/wire/recordany
	$(GO) test -run '^$$' -fuzz '^FuzzParseDateTimeCommon$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzParseUnsigned$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzParseFormChar$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzParseFlags$$' -fuzztime $(FUZZTIME) ./server/wire/xsd
	$(GO) test -run '^$$' -fuzz '^FuzzZooDecoders$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzZoo3Hierarchies$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzZoo3Open$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzZoo2Forms$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzMessageDecoders$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzRecordDecoders$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzHdrEnvelope$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzBareEnvelope$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzAttrs$$' -fuzztime $(FUZZTIME) ./tools/gowsdlgen/internal/zoo
	$(GO) test -run '^$$' -fuzz '^FuzzAccessLogMatchesSlog$$' -fuzztime $(FUZZTIME) ./server/observe/accesslog
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSONL$$' -fuzztime $(FUZZTIME) ./server/transfer
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCSV$$' -fuzztime $(FUZZTIME) ./server/transfer

# JEPSEN_DURATION is how long make jepsen loads the instances while faults are injected; make test runs
# the same test's short form (20 s) when CONTACTSYNC_TEST_POSTGRES is set.
JEPSEN_DURATION = 90s

.PHONY: jepsen
jepsen: ## History-checked fault test on PostgreSQL for JEPSEN_DURATION (default 90s; needs CONTACTSYNC_TEST_POSTGRES; see docs/operations.md).
	@test -n "$$CONTACTSYNC_TEST_POSTGRES" || { \
		echo 'jepsen: set CONTACTSYNC_TEST_POSTGRES to a PostgreSQL DSN, e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable' >&2; \
		exit 1; }
	CONTACTSYNC_JEPSEN_DURATION=$(JEPSEN_DURATION) $(GO) test -race -count=1 -timeout 30m -run '^TestJepsen$$' -v ./cmd/contactsync

.PHONY: lint
lint: ## gofmt, go vet and staticcheck (the version go.mod pins as a tool).
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted" >&2; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

.PHONY: interop
interop: ## Run real .NET (Mono), Java (JAX-WS), Python (zeep) and Node (soap) clients against the service.
	GO="$(GO)" bash tools/interop/run.sh

.PHONY: bench
bench: ## Run the Go benchmarks of the hot path (handler per binding, decoders, encoders, store).
	$(GO) test -run '^$$' -bench . -benchmem ./server/ ./server/binding/ ./server/store/sqlite/

.PHONY: bench-attack
bench-attack: ## Attack and overload scenarios of issue 14 against the binary on loopback (DURATION=15s; see tools/attackbench/run.sh).
	GO="$(GO)" bash tools/attackbench/run.sh

.PHONY: bench-instr
bench-instr: ## Instructions per op of Go benchmarks under callgrind, immune to machine load (BENCH= PKG= BASE_REF=<commit>; see tools/loadbench/instructions.sh).
	GO="$(GO)" bash tools/loadbench/instructions.sh

.PHONY: bench-load
bench-load: ## Load benchmark with wrk against a net/http baseline (ROUNDS=7 DURATION=10s BASE_REF=<commit>; see tools/loadbench/run.sh).
	GO="$(GO)" bash tools/loadbench/run.sh

.PHONY: bench-data
bench-data: ## Data benchmark: import, export, copy and backup of 1,000,000 contacts (CONTACTS=…; see tools/databench/run.sh).
	GO="$(GO)" bash tools/databench/run.sh
