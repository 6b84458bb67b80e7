"""The documentation against the server (test/integration/docs.sh runs it; psql's connection settings come from
the environment, as every suite's).

    python3 test/docs_check.py PAGE.md...
    python3 test/docs_check.py --examples PAGE.md... only the examples (e.g. the README's, on a server just installed into)
    python3 test/docs_check.py --citus PAGE.md...   only the ```sql citus blocks, in schema docs_citus of the
                                                    database psql connects to (a Citus coordinator with idcodec)

1. The reference: every function of idcodec and idcodec_pg_hashids is documented in exactly one ```signature block
   of the pages, as `name(arguments) → result` with the arguments as pg_get_function_arguments gives them (defaults
   without their casts), followed in the block by its marking (e.g. `IMMUTABLE STRICT PARALLEL SAFE`, then
   `LEAKPROOF` where the function is); no block documents a signature the catalog does not have. Every type the
   extensions own (arrays aside) has a line `type NAME` in a ```signature block.
2. The examples: every ```sql block of a page runs, the page's blocks in order in one session of a fresh database
   with both extensions, and each line `SELECT ...;   -- value` must print that value (psql's unaligned output,
   columns joined by ' | '; 'true'/'false' for t/f; a closing remark in parentheses and prose such as "-- the
   same ..." are not values). A block marked ```sql pgNN runs only on major NN and later (on earlier ones it is
   counted as not applicable); ```sql postgres_fdw (an extension's name) only where the server has that extension;
   ```sql pg_hashids in a database of their own where pg_hashids is installed first (a migration from it);
   ```sql citus blocks run in test/integration/citus.sh, on a cluster. A page that shows a keyring file (lines
   `name = hex`) has it as the server's keyring while its examples run.
Prints one line per problem and a summary; exits 1 when there is a problem.
"""
import os
import re
import subprocess
import sys

NORMALIZE = r"""regexp_replace(regexp_replace(pg_get_function_arguments(p.oid),
                  '(DEFAULT (?:''(?:[^'']|'''')*''|NULL|-?[0-9]+|false|true))::[a-z ]+(\[\])?', '\1', 'g'),
                  'DEFAULT NULL::[a-z ]+(\[\])?', 'DEFAULT NULL', 'g')"""
MARKING = """CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END
             || CASE WHEN p.proisstrict THEN ' STRICT' ELSE '' END
             || CASE p.proparallel WHEN 's' THEN ' PARALLEL SAFE' WHEN 'r' THEN ' PARALLEL RESTRICTED'
                ELSE ' PARALLEL UNSAFE' END
             || CASE WHEN p.proleakproof THEN ' LEAKPROOF' ELSE '' END"""
DATABASE = "idcodec_docs"
# Every session: results in UTC, no notices, messages untranslated.
ENVIRONMENT = dict(os.environ, PGOPTIONS="-c timezone=UTC -c client_min_messages=warning -c lc_messages=C")
problems = []


def psql(*args, database="postgres", check=True):
    result = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", database, *args],
                            capture_output=True, text=True, env=ENVIRONMENT)
    if check and result.returncode != 0:
        raise RuntimeError(f"psql {' '.join(args)}: {result.stderr.strip()}")
    return result


def fresh_database(extension="idcodec_pg_hashids CASCADE"):
    psql("-c", f"DROP DATABASE IF EXISTS {DATABASE}", "-c", f"CREATE DATABASE {DATABASE}")
    psql("-c", f"CREATE EXTENSION {extension}", database=DATABASE)


def available(extension):
    return psql("-c", f"SELECT count(*) FROM pg_available_extensions WHERE name = '{extension}'").stdout.strip() == "1"


# The keyring a page shows (a block of `name = hex` lines), as the server's keyring file while its examples run.
def use_keyring(text):
    for _, block in blocks(text, ""):
        entries = [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if entries and all(re.fullmatch(r"\s*\w+\s*=\s*[0-9a-fA-F]{32,64}\s*(#.*)?", line) for line in entries):
            data = psql("-c", "SHOW data_directory").stdout.strip()
            path = os.path.join(data, "idcodec-docs.keys")
            with open(path, "w", encoding="ascii") as keys:
                keys.write(block)
            owner = os.stat(data)
            os.chown(path, owner.st_uid, owner.st_gid)
            os.chmod(path, 0o600)
            psql("-c", "LOAD 'idcodec'", "-c", "ALTER SYSTEM SET idcodec.keyring_file = 'idcodec-docs.keys'",
                 "-c", "SELECT pg_reload_conf()")
            return path
    return None


def forget_keyring(path):
    psql("-c", "LOAD 'idcodec'", "-c", "ALTER SYSTEM RESET idcodec.keyring_file", "-c", "SELECT pg_reload_conf()")
    os.remove(path)


def run(script, database):
    return subprocess.run(["psql", "-X", "-q", "-At", "-F", " | ", "-v", "ON_ERROR_STOP=1"]
                          + (["-d", database] if database else []),
                          input="\n".join(script) + "\n", capture_output=True, text=True, env=ENVIRONMENT)


def blocks(text, info):
    """The fenced blocks whose info string starts with `info`, as (info string, text)."""
    return [(m.group(2).strip(), re.sub(r"(?m)^" + m.group(1), "", m.group(3)))
            for m in re.finditer(r"^( *)```(" + info + r"[^\n]*)\n(.*?)^\1```$", text, re.M | re.S)]


def check_reference(pages):
    catalog = {}
    for line in psql("-F", "\t", "-c", f"""
            SELECT p.proname || '(' || {NORMALIZE} || ') → ' || pg_get_function_result(p.oid), {MARKING}
            FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
            JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids')""",
                     database=DATABASE).stdout.splitlines():
        signature, marking = line.split("\t")
        catalog[signature] = marking
    types = set(psql("-c", """
            SELECT t.typname FROM pg_type t
            JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
            JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids')
            WHERE t.typelem = 0 OR t.typlen <> -1""", database=DATABASE).stdout.split())
    documented, documented_types = {}, set()
    for page in pages:
        for _, block in blocks(open(page, encoding="utf-8").read(), "signature"):
            lines = [line.strip() for line in block.splitlines() if line.strip()]
            documented_types.update(line.split()[1] for line in lines if re.fullmatch(r"type \w+", line))
            lines = [line for line in lines if not re.fullmatch(r"type \w+", line)]
            if not lines:
                continue
            markings = [line for line in lines if "(" not in line]
            if len(markings) != 1:
                problems.append(f"{page}: a signature block needs exactly one marking line: {lines}")
                continue
            for signature in (line for line in lines if "(" in line):
                if signature in documented:
                    problems.append(f"{page}: {signature} is documented twice (also in {documented[signature][0]})")
                documented[signature] = (page, markings[0])
    for signature, marking in sorted(catalog.items()):
        if signature not in documented:
            problems.append(f"undocumented (or documented with another signature): {signature}")
        elif documented[signature][1] != marking:
            problems.append(f"{documented[signature][0]}: {signature} is {marking}, documented as {documented[signature][1]}")
    for signature, (page, _) in sorted(documented.items()):
        if signature not in catalog:
            problems.append(f"{page}: documents {signature}, which the catalog does not have")
    for name in sorted(types - documented_types):
        problems.append(f"undocumented type: {name}")
    for name in sorted(documented_types - types):
        problems.append(f"the docs document type {name}, which the catalog does not have")
    return len(catalog) + len(types)


def expected_value(comment):
    value = comment.strip()
    value = re.sub(r"\s+\(.*$", "", value)  # a closing remark
    if not value or re.match(r"^(the|a|an|same|every|one)\b", value) or ": " in value:
        return None
    return {"true": "t", "false": "f"}.get(value, value)


def check_examples(page, major, citus=False):
    text = open(page, encoding="utf-8").read()
    scripts = {"": []}  # the page's script, and the scripts of blocks that need a database of their own
    checks, skipped = [], 0
    for info, block in blocks(text, "sql"):
        words = info.split()[1:]
        if ("citus" in words) != citus:
            continue
        if citus:
            words.remove("citus")
            if not scripts[""]:
                scripts[""] = ["DROP SCHEMA IF EXISTS docs_citus CASCADE;", "CREATE SCHEMA docs_citus;",
                               "SET search_path = docs_citus, public;"]
        needs = [int(w[2:]) for w in words if re.fullmatch(r"pg\d+", w)]
        extensions = [w for w in words if not re.fullmatch(r"pg\d+", w)]
        if (needs and major < needs[0]) or not all(available(e) for e in extensions):
            skipped += 1
            continue
        script = scripts.setdefault("pg_hashids" if "pg_hashids" in extensions else "", [])
        for line in block.splitlines():
            # the page's own CREATE EXTENSION, on a database that has it already
            line = re.sub(r"^CREATE EXTENSION (?!IF NOT EXISTS)", "CREATE EXTENSION IF NOT EXISTS ", line)
            m = re.match(r"^(SELECT\b.*;)\s+--\s?(.*)$", line)
            value = expected_value(m.group(2)) if m else None
            if value is None:
                script.append(line)
                continue
            checks.append((m.group(1), value))
            script += [f"\\echo @@check {len(checks) - 1}", m.group(1), "\\echo @@end"]
    keyring = use_keyring(text)
    outputs, current = {}, None
    try:
        for database, script in scripts.items():
            if not script:
                continue
            if not citus:
                fresh_database("pg_hashids" if database else "idcodec_pg_hashids CASCADE")
            result = run(script, None if citus else DATABASE)
            if result.returncode != 0:
                problems.append(f"{page}: the examples stop with {result.stderr.strip()[:400]}")
            for line in result.stdout.splitlines():
                m = re.match(r"^@@check (\d+)$", line)
                if m:
                    current = int(m.group(1))
                    outputs[current] = []
                elif line == "@@end":
                    current = None
                elif current is not None:
                    outputs[current].append(line)
    finally:
        if keyring:
            forget_keyring(keyring)
    for number, (query, value) in enumerate(checks):
        actual = "\n".join(outputs.get(number, ["(did not run)"]))
        if actual != value:
            problems.append(f"{page}: {query}\n    documented: {value}\n    actual:     {actual}")
    return len(checks), skipped


def major_of_server():
    return int(psql("-c", "SHOW server_version_num").stdout.strip()) // 10000


def main():
    pages = sys.argv[1:]
    if pages[0] == "--examples":  # only the examples, e.g. the README's against a server just installed into
        examples = sum(check_examples(page, major_of_server())[0] for page in pages[1:])
        psql("-c", f"DROP DATABASE IF EXISTS {DATABASE}")
        for problem in problems:
            print(problem)
        print(f"examples: {examples} compared; {len(problems)} problems")
        sys.exit(1 if problems or not examples else 0)
    if pages[0] == "--citus":
        examples = sum(check_examples(page, 0, citus=True)[0] for page in pages[1:])
        for problem in problems:
            print(problem)
        print(f"docs on Citus: {examples} examples compared; {len(problems)} problems")
        sys.exit(1 if problems or not examples else 0)
    major = major_of_server()
    fresh_database()
    functions = check_reference([p for p in pages if p.startswith("docs/")])
    examples = not_applicable = 0
    for page in pages:
        checked, skipped = check_examples(page, major)
        examples += checked
        not_applicable += skipped
    psql("-c", f"DROP DATABASE IF EXISTS {DATABASE}")
    for problem in problems:
        print(problem)
    print(f"docs: {functions} functions and types of the catalog each documented once; {examples} examples compared on "
          f"PostgreSQL {major} ({not_applicable} blocks for later majors); {len(problems)} problems")
    sys.exit(1 if problems else 0)


main()
