# PGXS build of idcodec, plus the entry points for unit tests, fuzzers and benchmarks.

EXTENSION = idcodec idcodec_pg_hashids
MODULE_big = idcodec
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control)
# One complete install script per extension (the current version) and the update chain from the first release.
DATA = $(wildcard idcodec--*.sql) $(wildcard idcodec_pg_hashids--*.sql)
# The complete install scripts of the earlier releases are test fixtures (test/releases/), so that the suites can
# make a database as each release made it: `make install WITH_RELEASE_FIXTURES=1` installs them beside the rest (PGXS
# installs DATA by file name), into a test installation only. A plain `make install`, the package and the PGXN
# archive's install leave them out, so a role with CREATE cannot install an old version on a real server.
ifeq ($(WITH_RELEASE_FIXTURES),1)
DATA += $(wildcard test/releases/idcodec--*.sql)
endif

# The core: a folder per family (ids, chunking, search) and common/ for what every family uses.
CORE_SRCS = $(wildcard src/core/*/*.cpp)
# AES for FF1 comes from OpenSSL's libcrypto (the library PostgreSQL itself links), never from code of our own.
CORE_LIBS = -lcrypto
CORE_HDRS = $(wildcard src/core/*/*.hpp)
PG_SRCS = $(wildcard src/pg/*.cpp)
OBJS = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --load-extension=idcodec

CXXSTD = -std=c++20
# Project headers are included by their path from src/ ("core/…", "pg/…"); srcdir without its trailing slash, as
# ccache reads a path with "//" as absolute and then preprocesses every file again.
PG_CPPFLAGS = -I$(srcdir:%/=%)/src
# -MMD: objects are rebuilt when a header they include changes (a stale object would disagree on class layouts).
PG_CXXFLAGS = $(CXXSTD) -MMD -MP -fvisibility-inlines-hidden -fno-semantic-interposition -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wno-register
SHLIB_LINK = -lstdc++ $(CORE_LIBS) -Wl,-Bsymbolic-functions
# SANITIZE_SERVER=1 builds idcodec.so with AddressSanitizer and UBSan, for a server started with the sanitizer
# runtimes preloaded (test/sanitizer/server.sh); build it in a copy of the sources, not over the normal objects.
# That build alone also holds the run's positive control, deliberate faults it must catch (test/sanitizer/control.cpp).
ifeq ($(SANITIZE_SERVER),1)
PG_CXXFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SHLIB_LINK += -fsanitize=address,undefined
OBJS += test/sanitizer/control.o
endif
# WERROR=1 turns warnings into errors (the test command builds this way; packagers need not).
ifeq ($(WERROR),1)
PG_CXXFLAGS += -Werror
endif

# No LLVM bitcode: the work of these functions is C++ behind exception guards, which JIT inlining cannot improve,
# and Debian's clang-14 would have to compile libstdc++ 12's C++20 headers just to install unused .bc files.
override with_llvm = no

# The core is compiled as plain C++: with IDCODEC_CORE_ONLY, including the shim's PostgreSQL headers is an error.
CORE_ONLY = -DIDCODEC_CORE_ONLY

# Set before PGXS is included, which reads it into its clean rule.
EXTRA_CLEAN = $(OBJS:.o=.d) build .pg-build-stamp

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
ifeq ($(MAKECMDGOALS),check)
# `make check`: every suite, against a temporary installation of its own (scripts/test.sh). PGXS's own check target
# only says to use installcheck, so it is not read for this goal.
check:
	bash scripts/test.sh
else
include $(PGXS)

# The core's results must not depend on the locale (an IMMUTABLE function's output is stored in indexes and
# generated columns): the build fails if a core file includes a locale-sensitive header or if a core object calls
# a locale-sensitive C or C++ library function.
LOCALE_HEADERS = cctype|cwctype|clocale|locale|ctype\.h|wctype\.h|locale\.h|regex
LOCALE_SYMBOLS = (to|is)(lower|upper|alpha|digit|alnum|space|xdigit|punct|print|cntrl|graph|blank)|towlower|towupper|\
	__ctype_[a-z_]+|setlocale|localeconv|newlocale|uselocale|nl_langinfo|strto[a-z]+|ato[ilf]+|[a-z_0-9]*scanf|\
	[a-z]*printf|strcoll|strxfrm|wcs[a-z]+|mbr?towc|wcr?tomb|mbstowcs|strftime|std::locale|std::ctype|std::__cxx11::regex
all: check-locale-free
check-locale-free: $(CORE_SRCS:.cpp=.o)
	@if grep -nE '^\s*#\s*include\s*<($(LOCALE_HEADERS))>' $(CORE_SRCS) $(CORE_HDRS); then \
	  echo "src/core must not include a locale-sensitive header (above)"; exit 1; fi
	@if nm -uC $^ | grep -E '^\s+U ($(LOCALE_SYMBOLS))(@|\(|$$)'; then \
	  echo "src/core must not call a locale-sensitive library function (above)"; exit 1; fi
$(CORE_SRCS:.cpp=.o): override CPPFLAGS += $(CORE_ONLY)
# The magic block carries the extension's version (shown by pg_get_loaded_modules() on PostgreSQL 18).
src/pg/module.o: override CPPFLAGS += -DIDCODEC_VERSION='"$(EXTVERSION)"'
src/pg/module.o: idcodec.control
# Objects are rebuilt when the flags in this file change, and for another PostgreSQL: the stamp names the server
# they were built for, and is rewritten (so made newer than them) when make is given another pg_config.
$(OBJS): $(firstword $(MAKEFILE_LIST)) .pg-build-stamp
PG_BUILD_ID := $(shell $(PG_CONFIG) --version) $(shell $(PG_CONFIG) --includedir-server)
ifneq ($(PG_BUILD_ID),$(shell cat .pg-build-stamp 2>/dev/null))
$(shell echo '$(PG_BUILD_ID)' > .pg-build-stamp)
endif
-include $(OBJS:.o=.d)

# The core/shim boundary: include-order guards, no PostgreSQL header in the core, every SQL function through
# IDCODEC_SQL_FUNCTION (test/boundary/check.sh).
check-boundary:
	@PG_CONFIG=$(PG_CONFIG) CXX=$(CXX) bash test/boundary/check.sh

# The Debian packages postgresql-NN-idcodec, for every major of debian/pgversions whose server headers are installed
# (PG_SUPPORTED_VERSIONS=installed: not only the distribution's own major; debian/control is brought up to date with
# them first), written beside the checkout as dpkg-buildpackage does.
deb:
	PG_SUPPORTED_VERSIONS=installed pg_buildext updatecontrol
	PG_SUPPORTED_VERSIONS=installed dpkg-buildpackage -us -uc -b

# The release archive PGXN takes: the committed sources of HEAD under idcodec-<version>/, the version META.json's.
DISTVERSION = $(shell sed -n 's/^   "version": "\(.*\)",$$/\1/p' META.json | head -n 1)
dist:
	@test "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" || \
		{ echo "make dist archives the committed sources of HEAD: it needs git and a git checkout" >&2; exit 1; }
	@mkdir -p $(BUILD)
	@git archive --format=zip --prefix=idcodec-$(DISTVERSION)/ -o $(BUILD)/idcodec-$(DISTVERSION).zip HEAD
	@echo $(BUILD)/idcodec-$(DISTVERSION).zip

# The extension scripts (and the examples' functions) as a superuser may run them: every operator, function and
# relation qualified, no OR REPLACE / IF NOT EXISTS, a fixed search_path (test/security/check_scripts.js, with
# PostgreSQL's parser from npm's libpg-query, pinned in test/security/package.json).
check-scripts:
	@bash test/security/check_scripts.sh

# The C++ style of .clang-format, over src/ and test/ (`make format` applies it).
FORMAT_FILES = $(wildcard src/*/*.cpp src/*/*.hpp src/core/*/*.cpp src/core/*/*.hpp test/unit/*/*.cpp test/unit/*/*.hpp test/fuzz/*.cpp test/fuzz/*.hpp \
	test/bench/*.cpp test/bench/peers/*.cpp test/chaos/*.cpp test/chaos/*.hpp test/drivers/*.cpp test/drivers/*.hpp test/boundary/*.cpp test/sanitizer/*.cpp)
check-format:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format: $(words $(FORMAT_FILES)) files as .clang-format says"
format:
	clang-format -i $(FORMAT_FILES)

# ---- C++ unit tests, sanitizers, fuzzers, benchmarks (no PostgreSQL needed) ----
BUILD = build
UNIT_SRCS = $(wildcard test/unit/*/*.cpp)
UNIT_HDRS = $(wildcard test/unit/*/*.hpp)
TEST_CXXFLAGS = $(CXXSTD) -O2 -g -Wall -Wextra -Isrc -Itest $(CORE_ONLY)
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

FUZZ_SRCS = $(wildcard test/fuzz/*.cpp)
FUZZ_HDRS = $(wildcard test/fuzz/*.hpp)
FUZZ_CXX = clang++ $(CXXSTD) -O1 -g -Isrc $(CORE_ONLY)
FUZZ_SANITIZE = address,undefined
FUZZ_OBJECT_CXX = $(FUZZ_CXX) -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZE)

# Each set of compiler flags has its own tree of objects under $(BUILD), so the core is compiled once per set (not
# once per program) and make -j compiles its files side by side. object_set NAME, COMPILE: the rule for that tree.
define object_set
$(BUILD)/$(1)/%.o: %.cpp $(CORE_HDRS) $(UNIT_HDRS) $(FUZZ_HDRS)
	@mkdir -p $$(@D)
	$(2) -c -o $$@ $$<
endef
$(eval $(call object_set,test,$(CXX) $(TEST_CXXFLAGS)))
$(eval $(call object_set,bench,$(CXX) $(CXXSTD) -O3 -DNDEBUG -Isrc -Itest $(CORE_ONLY)))
$(eval $(call object_set,asan,$(CXX) $(TEST_CXXFLAGS) $(SANITIZE)))
$(eval $(call object_set,fuzz,$(FUZZ_OBJECT_CXX)))
# objects SET, SOURCES: the objects of those sources in that set's tree
objects = $(patsubst %.cpp,$(BUILD)/$(1)/%.o,$(2))
# made by the fuzz targets' pattern rule, yet kept (not deleted as intermediate files)
.SECONDARY: $(call objects,fuzz,$(CORE_SRCS) $(FUZZ_SRCS))

# The unit tests link the extension's own core objects (plain C++, no PostgreSQL): what they test is what ships.
$(BUILD)/unit_tests: $(call objects,test,$(UNIT_SRCS)) $(CORE_SRCS:.cpp=.o)
	$(CXX) $(TEST_CXXFLAGS) -o $@ $^ $(CORE_LIBS) -lgtest -pthread

$(BUILD)/unit_tests_asan: $(call objects,asan,$(UNIT_SRCS) $(CORE_SRCS))
	$(CXX) $(TEST_CXXFLAGS) $(SANITIZE) -o $@ $^ $(CORE_LIBS) -lgtest -pthread

unit: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

unit-asan: $(BUILD)/unit_tests_asan
	$(BUILD)/unit_tests_asan

FUZZ_NAMES = $(patsubst test/fuzz/%.cpp,%,$(FUZZ_SRCS))
FUZZ_TARGETS = $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)
FUZZ_SECONDS ?= 20

$(BUILD)/fuzz_%: $(BUILD)/fuzz/test/fuzz/%.o $(call objects,fuzz,$(CORE_SRCS))
	$(FUZZ_CXX) -fsanitize=fuzzer,$(FUZZ_SANITIZE) -o $@ $^ $(CORE_LIBS)

fuzz: $(FUZZ_TARGETS)
	@bash test/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_NAMES); status=$$?; \
	  for f in $(FUZZ_NAMES); do \
	    echo "== $$f ($(FUZZ_SECONDS)s): exit status $$(cat $(BUILD)/fuzz_$$f.status)"; tail -n 2 $(BUILD)/fuzz_$$f.log; done; \
	  exit $$status

# The test programs on libpq (test/drivers, test/chaos): one source each, and the headers they share.
LINK_LIBPQ_PROGRAM = $(CXX) $(CXXSTD) -O2 -g -Wall -Wextra -Itest -I$(shell $(PG_CONFIG) --includedir) -o $@ $< \
	-L$(shell $(PG_CONFIG) --libdir) -lpq -pthread

# The libpq load and chaos driver; `make chaos CHAOS_SECONDS=600` runs a long one (scripts/test.sh runs a short one).
$(BUILD)/chaos_driver: test/chaos/chaos_driver.cpp test/chaos/ledger.hpp test/drivers/libpq.hpp
	@mkdir -p $(BUILD)
	$(LINK_LIBPQ_PROGRAM)

# The distributed workload under faults (test/integration/citus_faults.sh runs it).
$(BUILD)/cluster_driver: test/chaos/cluster_driver.cpp test/chaos/ledger.hpp test/drivers/libpq.hpp
	@mkdir -p $(BUILD)
	$(LINK_LIBPQ_PROGRAM)

# The ulid and typeid types through libpq in binary mode (test/integration/types.sh runs it).
$(BUILD)/binary_types: test/drivers/binary_types.cpp test/drivers/libpq.hpp
	@mkdir -p $(BUILD)
	$(LINK_LIBPQ_PROGRAM)

# The differential query test of the types (test/integration/planner.sh runs it; `make fuzz-plans` runs a long
# one with new seeds).
$(BUILD)/plan_diff: test/drivers/plan_diff.cpp test/drivers/libpq.hpp
	@mkdir -p $(BUILD)
	$(LINK_LIBPQ_PROGRAM)

# The extension built with ASan+UBSan inside a throwaway server: every suite, the batteries and sqlsmith. It installs
# the sanitized build into the installation of $PG_BIN (the test command's temporary one when scripts/test.sh runs
# it, which installs the normal build again afterwards).
asan-server:
	bash test/sanitizer/server.sh

SQLSMITH_SECONDS ?= 600
sqlsmith:
	IDCODEC_SQLSMITH_SECONDS=$(SQLSMITH_SECONDS) bash test/integration/sqlsmith.sh

# A long differential query test: PLAN_ROUNDS rounds of queries (every one under every setting) for each of
# PLAN_SEEDS seeds, on a throwaway cluster of the temporary installation.
PLAN_ROUNDS ?= 5
PLAN_SEEDS ?= 1 2 3 4 5 6 7 8
fuzz-plans: $(BUILD)/plan_diff
	bash -c 'source scripts/setup.sh && build_and_install && start_cluster && \
	  for seed in $(PLAN_SEEDS); do IDCODEC_PLAN_SEED=$$seed IDCODEC_PLAN_ROUNDS=$(PLAN_ROUNDS) IDCODEC_PLAN_CASES=0 \
	    bash test/integration/planner.sh || exit 1; done'

CHAOS_SECONDS ?= 300
chaos: $(BUILD)/chaos_driver
	IDCODEC_CHAOS_SECONDS=$(CHAOS_SECONDS) bash test/integration/chaos.sh

BENCH_SRCS = $(wildcard test/bench/*.cpp)

$(BUILD)/core_bench: $(call objects,bench,$(BENCH_SRCS) $(CORE_SRCS))
	$(CXX) -o $@ $^ $(CORE_LIBS) -lbenchmark -lpthread

$(BUILD)/chunker_speed: $(call objects,bench,test/bench/peers/chunker_speed.cpp $(CORE_SRCS))
	$(CXX) -o $@ $^ $(CORE_LIBS)

# Core throughput (Google Benchmark), the chunkers beside restic's, borg's and fastcdc-rs's (when its source is
# given: test/bench/peers/run.sh), then the SQL ratios in one session: on the server PGHOST names (with idcodec
# installed there), else on a throwaway cluster of the temporary installation (scripts/setup.sh, which first installs
# what the build, the cluster and the peers need). Its tables and SVG charts (gnuplot) are left in $(BUILD)/bench/.
bench:
	bash -c 'source scripts/setup.sh && install_dependencies && install_bench_peers'
	$(MAKE) -s $(BUILD)/core_bench $(BUILD)/chunker_speed
	$(BUILD)/core_bench --benchmark_min_time=1
	BUILD=$(BUILD) bash test/bench/peers/run.sh
	BUILD=$(BUILD) bash test/bench/run.sh
	BUILD=$(BUILD) bash test/bench/follows.sh
	BUILD=$(BUILD) bash test/bench/charts.sh

.PHONY: unit unit-asan fuzz fuzz-plans bench deb dist check-locale-free check-boundary check-scripts check-format format chaos sqlsmith asan-server
endif
