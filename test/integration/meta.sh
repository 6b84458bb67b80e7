#!/usr/bin/env bash
# META.json follows the PGXN Meta Spec 1.0.0 (every required key, values of the right form) and agrees with the
# repository: one `provides` entry per control file, each at the control file's default_version, with an install
# script of that version that exists and is the only complete install script of that extension the distribution
# ships (at the root: the earlier releases' are test fixtures in test/releases/, none at a current version); the
# distribution's version is idcodec's; CHANGELOG.md has a section for it; the PostgreSQL versions it requires are
# the majors debian/pgversions lists.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 - <<'PY'
import glob, json, re, sys

problems = []
meta = json.load(open("META.json"))
semver = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")

for key in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
    if key not in meta:
        problems.append(f"required key {key} is missing")
if meta.get("meta-spec", {}).get("version") != "1.0.0":
    problems.append("meta-spec.version must be 1.0.0")
if not semver.match(meta.get("version", "")):
    problems.append(f"version {meta.get('version')!r} is not a semantic version")
if meta.get("release_status") not in ("stable", "testing", "unstable"):
    problems.append("release_status must be stable, testing or unstable")
licenses = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
            "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
            "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
            "restricted", "unrestricted", "unknown"}
license_value = meta.get("license")
if not (license_value in licenses or isinstance(license_value, (list, dict))):
    problems.append(f"license {license_value!r} is not one the spec names")
maintainer = meta.get("maintainer")
if not (isinstance(maintainer, str) or (isinstance(maintainer, list) and maintainer)):
    problems.append("maintainer must be a string or a non-empty list")
for phase, relations in meta.get("prereqs", {}).items():
    if phase not in ("configure", "build", "test", "runtime", "develop"):
        problems.append(f"prereqs phase {phase!r} is not one of the spec's")
    for relation in relations:
        if relation not in ("requires", "recommends", "suggests", "conflicts"):
            problems.append(f"prereqs relation {relation!r} is not one of the spec's")
if not isinstance(meta.get("tags", []), list):
    problems.append("tags must be a list")

controls = {}
for path in glob.glob("*.control"):
    name = path[: -len(".control")]
    text = open(path).read()
    version = re.search(r"^default_version\s*=\s*'([^']*)'", text, re.M)
    controls[name] = version.group(1) if version else None
provides = meta.get("provides", {})
if set(provides) != set(controls):
    problems.append(f"provides {sorted(provides)} but the control files are {sorted(controls)}")
for name, entry in provides.items():
    for key in ("file", "version"):
        if key not in entry:
            problems.append(f"provides.{name}.{key} is missing")
    if name in controls and entry.get("version") != controls[name]:
        problems.append(f"provides.{name}.version {entry.get('version')} but {name}.control says {controls[name]}")
    if entry.get("file") != f"{name}--{controls.get(name)}.sql":
        problems.append(f"provides.{name}.file should be the install script {name}--{controls.get(name)}.sql")
    for key in ("file", "docfile"):
        if key in entry and not glob.glob(entry[key]):
            problems.append(f"provides.{name}.{key} {entry[key]} does not exist")
# One complete install script per extension at the root (what the Makefile installs, the package and the archive
# ship); an earlier release's is a test fixture, never one at the current version (which the package's would be).
for name, version in controls.items():
    complete = sorted(path for path in glob.glob(f"{name}--*.sql") if path.count("--") == 1)
    if complete != [f"{name}--{version}.sql"]:
        problems.append(f"the root holds the complete install scripts {complete} of {name}, not {name}--{version}.sql alone")
for path in sorted(glob.glob("test/releases/*.sql")):
    match = re.fullmatch(r"test/releases/([a-z_]+)--([0-9.]+)\.sql", path)
    earlier = match and match.group(1) in controls and \
        [int(n) for n in match.group(2).split(".")] < [int(n) for n in controls[match.group(1)].split(".")]
    if not earlier:
        problems.append(f"{path} is not the complete install script of an earlier release of an extension")
if meta.get("version") != controls.get("idcodec"):
    problems.append(f"META version {meta.get('version')} but idcodec.control says {controls.get('idcodec')}")
if f"## {meta.get('version')}" not in open("CHANGELOG.md").read():
    problems.append(f"CHANGELOG.md has no section for {meta.get('version')}")

majors = sorted(int(line) for line in open("debian/pgversions") if line.strip().isdigit())
supported = f">= {majors[0]}.0.0, < {majors[-1] + 1}.0.0"
for phase in ("runtime", "build"):
    required = meta.get("prereqs", {}).get(phase, {}).get("requires", {}).get("PostgreSQL")
    if required != supported:
        problems.append(f"prereqs.{phase} requires PostgreSQL {required!r}, debian/pgversions says {supported!r}")

for problem in problems:
    print("META:", problem)
print(f"META.json: {len(provides)} extensions provided, {len(problems)} problems")
sys.exit(1 if problems else 0)
PY
