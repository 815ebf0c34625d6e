# Targets are documented by their "## " comments; `make help` lists them.
# Plain POSIX make syntax where GNU make allows it, so the file reads the same to both.

GO = go

.PHONY: help
help: ## List the targets.
	@awk -F ':.*## ' '/^[A-Za-z0-9_.-]+:.*## / { printf "  %-16s %s\n", $$1, $$2 }' Makefile

.PHONY: generate
generate: ## Regenerate gen/ from wsdl/contactsync.wsdl (go generate ./...).
	$(GO) generate ./...

.PHONY: check-generate
check-generate: generate ## Fail if regenerating gen/ changes it or adds files, or the result does not build.
	$(GO) build ./...
	@git diff --exit-code -- gen || { \
		echo 'check-generate: gen/ differs from what `make generate` produces; run `make generate` and commit gen/.' >&2; \
		exit 1; }
	@untracked=$$(git ls-files --others --exclude-standard -- gen); \
	if [ -n "$$untracked" ]; then \
		echo "check-generate: generation created files that are not committed:" >&2; \
		echo "$$untracked" >&2; \
		echo 'check-generate: commit them (or fix the generator) and run `make check-generate` again.' >&2; \
		exit 1; \
	fi

.PHONY: build
build: ## Build the contactsync binary into bin/.
	$(GO) build -o bin/contactsync ./cmd/contactsync

.PHONY: run
run: ## Run the service on :8080 with the embedded SQLite store (./contactsync.db).
	$(GO) run ./cmd/contactsync serve

.PHONY: test
test: ## Run every test with the race detector, then each fuzz target briefly.
	$(GO) test -race -count=1 ./...
	$(MAKE) fuzz FUZZTIME=10s

FUZZTIME = 30s

.PHONY: fuzz
fuzz: ## Run each fuzz target for FUZZTIME (default 30s).
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeEnvelope$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzHTTPBindings$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzAuthCredentials$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzRequestID$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzFastEnvelope$$' -fuzztime $(FUZZTIME) ./server
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRoles$$' -fuzztime $(FUZZTIME) ./server/store/sqlite
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSONL$$' -fuzztime $(FUZZTIME) ./server/transfer
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCSV$$' -fuzztime $(FUZZTIME) ./server/transfer

.PHONY: lint
lint: ## gofmt and go vet.
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted" >&2; exit 1; fi
	$(GO) vet ./...

.PHONY: interop
interop: ## Run real .NET (Mono), Java (JAX-WS), Python (zeep) and Node (soap) clients against the service.
	GO="$(GO)" bash tools/interop/run.sh

.PHONY: bench
bench: ## Run the Go benchmarks of the hot path (handler per binding, decoders, encoders, store).
	$(GO) test -run '^$$' -bench . -benchmem ./server/ ./server/store/sqlite/

.PHONY: bench-load
bench-load: ## Load benchmark with wrk against a net/http baseline (ROUNDS=3 DURATION=10s; see tools/loadbench/run.sh).
	GO="$(GO)" bash tools/loadbench/run.sh

.PHONY: bench-data
bench-data: ## Data benchmark: import, export, copy and backup of 1,000,000 contacts (CONTACTS=…; see tools/databench/run.sh).
	GO="$(GO)" bash tools/databench/run.sh
