# The sources of a tree, for the suites that copy or archive them (install.sh, dist.sh, package.sh). A tree may be
# a git checkout or not (the PGXN archive unpacked, a copy without .git): then git cannot list its sources, and its
# .gitignore says what is no source.
#
#   is_git_checkout DIR     true when DIR is the top of a git checkout and git is there to read it
#   source_files DIR        the sources of DIR, NUL-separated paths relative to it: in a checkout, the files git
#                           tracks (minus deleted ones) and untracked files it does not ignore; otherwise every
#                           file except .git and what the root .gitignore's patterns name
#   copy_sources DIR DEST   those files copied into DEST

is_git_checkout() {
    command -v git >/dev/null 2>&1 || return 1
    # the top of its own checkout, not a tree unpacked somewhere inside another repository
    [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]
}

source_files() {
    if is_git_checkout "$1"; then
        (cd "$1" && git ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' file; do
                if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
            done)
        return
    fi
    # .gitignore's forms that file uses: a pattern with a slash is anchored at the root, one without matches a name
    # at any depth, a trailing slash matches directories only
    python3 - "$1" <<'PY'
import fnmatch, os, sys
root = sys.argv[1]
rules = []
try:
    with open(os.path.join(root, ".gitignore")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            directory = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            rules.append((line.lstrip("/"), anchored, directory))
except FileNotFoundError:
    pass
def ignored(rel, is_dir):
    for pattern, anchored, directory in rules:
        if directory and not is_dir:
            continue
        if fnmatch.fnmatchcase(rel if anchored else os.path.basename(rel), pattern):
            return True
    return False
for top, dirs, files in os.walk(root):
    here = os.path.relpath(top, root)
    here = "" if here == "." else here + "/"
    dirs[:] = sorted(d for d in dirs if d != ".git" and not ignored(here + d, True))
    for name in sorted(files):
        if name != ".git" and not ignored(here + name, False):
            sys.stdout.write(here + name + "\0")
PY
}

copy_sources() {
    mkdir -p "$2"
    source_files "$1" | (cd "$1" && tar --null -T - -cf -) | tar -C "$2" -xf -
}
