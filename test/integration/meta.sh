#!/usr/bin/env bash
# META.json follows the PGXN Meta Spec 1.0.0 (every required key, values of the right form) and agrees with the
# repository: one `provides` entry per control file, each at the control file's default_version, with an install
# script of that version that exists and is the only complete install script of that extension the distribution
# ships (at the root: the earlier releases' are test fixtures in test/releases/, none at a current version); the
# distribution's version is idcodec's; CHANGELOG.md has a section for it; the PostgreSQL versions it requires are
# the majors debian/pgversions lists.
source "$(dirname "$0")/../lib/suite.sh"
# The checks are Python's; each prints one record, "ok<TAB>description" or "not ok<TAB>description<TAB>why", which
# becomes a TAP test here (the numbering is the suite's).
status=0
records=$(python3 - <<'PY'
import glob, json, re


def test(description, problems):
    problems = [p for p in problems if p]
    if problems:
        print("not ok\t" + description + "\t" + "; ".join(problems))
    else:
        print("ok\t" + description)


meta = json.load(open("META.json"))
semver = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")

required = ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec")
test(f"META.json has every key the spec requires ({', '.join(required)})",
     [f"required key {key} is missing" for key in required if key not in meta])
test("meta-spec.version is 1.0.0",
     [meta.get("meta-spec", {}).get("version") != "1.0.0" and "meta-spec.version must be 1.0.0"])
test("version is a semantic version",
     [not semver.match(meta.get("version", "")) and f"version {meta.get('version')!r} is not a semantic version"])
test("release_status is stable, testing or unstable",
     [meta.get("release_status") not in ("stable", "testing", "unstable") and
      f"release_status is {meta.get('release_status')!r}"])
licenses = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
            "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
            "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
            "restricted", "unrestricted", "unknown"}
license_value = meta.get("license")
test("license is one the spec names",
     [not (license_value in licenses or isinstance(license_value, (list, dict))) and
      f"license {license_value!r} is not one the spec names"])
maintainer = meta.get("maintainer")
test("maintainer is a string or a non-empty list",
     [not (isinstance(maintainer, str) or (isinstance(maintainer, list) and maintainer)) and
      f"maintainer is {maintainer!r}"])
prereqs = meta.get("prereqs", {})
test("every prereqs phase is one of the spec's",
     [f"prereqs phase {phase!r} is not one of the spec's" for phase in prereqs
      if phase not in ("configure", "build", "test", "runtime", "develop")])
test("every prereqs relation is one of the spec's",
     [f"prereqs relation {relation!r} is not one of the spec's" for relations in prereqs.values()
      for relation in relations if relation not in ("requires", "recommends", "suggests", "conflicts")])
test("tags is a list", [not isinstance(meta.get("tags", []), list) and "tags must be a list"])

controls = {}
for path in glob.glob("*.control"):
    name = path[: -len(".control")]
    text = open(path).read()
    version = re.search(r"^default_version\s*=\s*'([^']*)'", text, re.M)
    controls[name] = version.group(1) if version else None
provides = meta.get("provides", {})
test("provides one entry per control file",
     [set(provides) != set(controls) and f"provides {sorted(provides)} but the control files are {sorted(controls)}"])
for name, entry in provides.items():
    test(f"provides.{name} has a file and a version",
         [f"provides.{name}.{key} is missing" for key in ("file", "version") if key not in entry])
    test(f"provides.{name}.version is {name}.control's default_version",
         [name in controls and entry.get("version") != controls[name] and
          f"provides.{name}.version {entry.get('version')} but {name}.control says {controls[name]}"])
    test(f"provides.{name}.file is the install script {name}--{controls.get(name)}.sql",
         [entry.get("file") != f"{name}--{controls.get(name)}.sql" and f"it is {entry.get('file')!r}"])
    test(f"provides.{name}'s file and docfile exist",
         [f"provides.{name}.{key} {entry[key]} does not exist" for key in ("file", "docfile")
          if key in entry and not glob.glob(entry[key])])
# One complete install script per extension at the root (what the Makefile installs, the package and the archive
# ship); an earlier release's is a test fixture, never one at the current version (which the package's would be).
for name, version in sorted(controls.items()):
    complete = sorted(path for path in glob.glob(f"{name}--*.sql") if path.count("--") == 1)
    test(f"the root holds {name}--{version}.sql as {name}'s only complete install script",
         [complete != [f"{name}--{version}.sql"] and f"the root holds the complete install scripts {complete} of {name}"])
fixtures = []
for path in sorted(glob.glob("test/releases/*.sql")):
    match = re.fullmatch(r"test/releases/([a-z_]+)--([0-9.]+)\.sql", path)
    earlier = match and match.group(1) in controls and \
        [int(n) for n in match.group(2).split(".")] < [int(n) for n in controls[match.group(1)].split(".")]
    if not earlier:
        fixtures.append(f"{path} is not the complete install script of an earlier release of an extension")
test("every script in test/releases/ is the complete install script of an earlier release", fixtures)
test("META.json's version is idcodec.control's",
     [meta.get("version") != controls.get("idcodec") and
      f"META version {meta.get('version')} but idcodec.control says {controls.get('idcodec')}"])
test(f"CHANGELOG.md has a section for {meta.get('version')}",
     [f"## {meta.get('version')}" not in open("CHANGELOG.md").read() and "no such section"])

majors = sorted(int(line) for line in open("debian/pgversions") if line.strip().isdigit())
supported = f">= {majors[0]}.0.0, < {majors[-1] + 1}.0.0"
for phase in ("runtime", "build"):
    required = prereqs.get(phase, {}).get("requires", {}).get("PostgreSQL")
    test(f"prereqs.{phase} requires PostgreSQL {supported}, the majors debian/pgversions lists",
         [required != supported and f"it requires {required!r}"])
PY
) || status=$?
while IFS=$'\t' read -r result description why; do
    case $result in
        ok) tap_ok "$description" ;;
        "not ok") tap_not_ok "$description" "$why" ;;
    esac
done <<<"$records"
# a check that could not be made (META.json unreadable, a value of the wrong type) stops the Python early
[ $status = 0 ] || tap_not_ok "the META.json checks ran to their end" "exit status $status"
tap_done
